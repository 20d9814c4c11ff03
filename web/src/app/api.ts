import { type BaseQueryFn, createApi } from '@reduxjs/toolkit/query/react';
import type { TypedDocumentString } from '../gql/graphql';

/**
 * One operation for the gateway: a document generated from `graphql(...)` (src/gql) and its
 * variables. Made by `operation`, which checks the variables against the document's.
 */
export interface GraphqlRequest {
  readonly document: TypedDocumentString<unknown, never>;
  readonly variables?: object;
}

export interface GraphqlFailure {
  readonly message: string;
  readonly code?: string;
}

interface GraphqlResponse {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

/** What a request that never reached the gateway says (the network, not the server). */
const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

/** What an answer that is not the gateway's says. */
function unavailable(status: number): string {
  return `The server is not answering right now (HTTP ${status}). Please try again in a moment.`;
}

/**
 * Whether the request most likely never reached the gateway (the browser could not send it):
 * trying again may work and repeats nothing. An answer that is not the gateway's (UNAVAILABLE)
 * may come after the gateway acted, so it is not one.
 */
export function isTransportFailure(failure: GraphqlFailure): boolean {
  return failure.code === 'UNREACHABLE';
}

/** An operation without variables: the generator types them as an object with no keys. */
type NoVariables = Readonly<Record<string, never>>;

/** The variables argument of an operation: none when it declares none, else its own. */
type VariablesOf<TVariables> = TVariables extends NoVariables ? [] : [variables: TVariables];

/** The request for `document`, with the variables its operation declares. */
export function operation<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: VariablesOf<TVariables>
): GraphqlRequest {
  return { document, ...(variables ? { variables } : {}) };
}

/** The signed-in user's access token, held in memory only (never in storage). */
let accessToken: string | null = null;

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function currentAccessToken(): string | null {
  return accessToken;
}

/**
 * Sends one GraphQL operation to the gateway, with the access token when there is one (the
 * refresh cookie goes along by itself: same origin, httpOnly), and turns its errors into one
 * message.
 */
async function send(
  { document, variables }: GraphqlRequest,
  signal?: AbortSignal,
): Promise<{ data: unknown } | { error: GraphqlFailure }> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify({ query: document.toString(), ...(variables ? { variables } : {}) }),
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    // Cancelled by its caller (RTK Query drops the answer).
    if (signal?.aborted) return { error: { message: String(error) } };
    // The browser's own words ('Failed to fetch', 'NetworkError when…') help nobody.
    return { error: { message: UNREACHABLE, code: 'UNREACHABLE' } };
  }
  let body: GraphqlResponse;
  try {
    body = (await response.json()) as GraphqlResponse;
  } catch (error) {
    if (signal?.aborted) return { error: { message: String(error) } };
    // Not the gateway's JSON: a proxy's error page, a cut connection.
    return { error: { message: unavailable(response.status), code: 'UNAVAILABLE' } };
  }
  const first = body.errors?.[0];
  if (first) {
    return {
      error: {
        message: first.message,
        ...(first.extensions?.code ? { code: first.extensions.code } : {}),
      },
    };
  }
  if (!response.ok) {
    return { error: { message: unavailable(response.status), code: 'UNAVAILABLE' } };
  }
  return { data: body.data };
}

/**
 * `document` sent outside RTK Query (the session thunks, the start of a debate): its data comes
 * back typed as the operation's result.
 */
export function graphqlRequest<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  ...variables: VariablesOf<TVariables>
): Promise<{ data: TResult } | { error: GraphqlFailure }> {
  // The gateway answered this document, so its data has the document's result type.
  return send(operation(document, ...variables)) as Promise<
    { data: TResult } | { error: GraphqlFailure }
  >;
}

const graphqlBaseQuery: BaseQueryFn<GraphqlRequest, unknown, GraphqlFailure> = (
  request,
  { signal },
) => send(request, signal);

/**
 * The one API slice for the gateway; each feature injects its own endpoints, each of which
 * types its `transformResponse` with the result type generated for its operation.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: graphqlBaseQuery,
  tagTypes: ['Usage', 'History', 'CommunityDebate', 'CommunityRanking'],
  endpoints: () => ({}),
});
