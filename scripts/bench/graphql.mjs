/**
 * A GraphQL client of the gateway at `url` for the benchmarks: `graphql(query, variables,
 * token)` answers the data, or throws with the first error's message.
 */
export function gatewayGraphql(url) {
  return async function graphql(query, variables, token) {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = await response.json();
    if (body.errors) throw new Error(body.errors[0].message);
    return body.data;
  };
}
