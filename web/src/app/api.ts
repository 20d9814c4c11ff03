import { type BaseQueryFn, createApi } from '@reduxjs/toolkit/query/react';

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

export interface GraphqlFailure {
  readonly message: string;
  readonly code?: string;
}

interface GraphqlResponse {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
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
export async function graphqlRequest(
  request: GraphqlRequest,
  signal?: AbortSignal,
): Promise<{ data: unknown } | { error: GraphqlFailure }> {
  try {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify(request),
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

export const graphqlBaseQuery: BaseQueryFn<GraphqlRequest, unknown, GraphqlFailure> = (
  request,
  { signal },
) => graphqlRequest(request, signal);

/** The one API slice for the gateway; each feature injects its own endpoints. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: graphqlBaseQuery,
  tagTypes: ['Usage', 'History'],
  endpoints: () => ({}),
});
