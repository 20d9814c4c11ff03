import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface GraphqlResult<T> {
  readonly status: number;
  readonly data?: T;
  readonly errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

export interface GraphqlOptions {
  readonly variables?: Record<string, unknown>;
  /** Extra request headers (authorization, cookie). */
  readonly headers?: Record<string, string>;
}

/** POSTs one GraphQL operation to the gateway, as a browser or a load tester would. */
export async function graphql<T>(
  baseUrl: string,
  query: string,
  options: GraphqlOptions = {},
): Promise<GraphqlResult<T> & { readonly setCookie: string[]; readonly headers: Headers }> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify({ query, variables: options.variables }),
  });
  const body = (await response.json()) as Omit<GraphqlResult<T>, 'status'>;
  return {
    status: response.status,
    ...body,
    setCookie: response.headers.getSetCookie(),
    headers: response.headers,
  };
}

/** Subscribes over graphql-ws and collects the first `count` payloads. */
export async function collectSubscription<T>(
  baseUrl: string,
  query: string,
  count: number,
  options: { accessToken?: string; variables?: Record<string, unknown> } = {},
): Promise<T[]> {
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    ...(options.accessToken
      ? { connectionParams: { authorization: `Bearer ${options.accessToken}` } }
      : {}),
  });
  const received: T[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const dispose = client.subscribe<T>(
        { query, ...(options.variables ? { variables: options.variables } : {}) },
        {
          next: (result) => {
            if (result.errors) {
              reject(new Error(result.errors.map((error) => error.message).join('; ')));
              return;
            }
            if (result.data) received.push(result.data as T);
            if (received.length >= count) {
              dispose();
              resolve();
            }
          },
          error: (error) =>
            reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
          complete: () => resolve(),
        },
      );
    });
  } finally {
    await client.dispose();
  }
  return received;
}

export interface SignedUp {
  readonly id: string;
  readonly token: string;
}

/** Creates an account through the gateway (signUp) and returns the user's id and token. */
export async function signUpThroughGateway(baseUrl: string, email: string): Promise<SignedUp> {
  const result = await graphql<{ signUp: { accessToken: string } }>(
    baseUrl,
    'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { accessToken } }',
    { variables: { email, password: 'a long enough password' } },
  );
  const token = result.data?.signUp.accessToken;
  if (!token) throw new Error(`signUp failed: ${JSON.stringify(result.errors)}`);
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return { token, id: String((payload as { sub: unknown }).sub) };
}
