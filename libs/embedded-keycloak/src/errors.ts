/** An OAuth error as Keycloak's token endpoint answers it. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/**
 * A refusal of the admin API, with Keycloak's body: `{"errorMessage": …}` for a request it
 * refuses, `{"error": …}` for what it does not find.
 */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: { errorMessage: string } | { error: string },
    options?: ErrorOptions,
  ) {
    super('errorMessage' in body ? body.errorMessage : body.error, options);
    this.name = 'AdminError';
  }
}
