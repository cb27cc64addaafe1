/** An RFC 6749 §5.2 error answer of the token endpoint. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }

  /** invalid_client is 401 (with a Basic challenge); every other error 400. */
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }

  get body() {
    return { error: this.error, error_description: this.description };
  }
}
