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
  try {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify({ query: document.toString(), ...(variables ? { variables } : {}) }),
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    });
    const body = (await response.json()) as GraphqlResponse;
    const first = body.errors?.[0];
    if (first) {
      return {
        error: {
          message: first.message,
          ...(first.extensions?.code ? { code: first.extensions.code } : {}),
        },
      };
    }
    if (!response.ok) return { error: { message: `The server answered ${response.status}` } };
    return { data: body.data };
  } catch (error) {
    return { error: { message: error instanceof Error ? error.message : 'Network error' } };
  }
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
  tagTypes: ['Usage', 'History', 'CommunityDebate'],
  endpoints: () => ({}),
});
