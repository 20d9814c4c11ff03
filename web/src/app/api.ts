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

/** Sends one GraphQL operation to the gateway and turns its errors into one message. */
export const graphqlBaseQuery: BaseQueryFn<GraphqlRequest, unknown, GraphqlFailure> = async (
  request,
  { signal },
) => {
  try {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal,
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
};

/** The one API slice for the gateway; each feature injects its own endpoints. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: graphqlBaseQuery,
  endpoints: () => ({}),
});
