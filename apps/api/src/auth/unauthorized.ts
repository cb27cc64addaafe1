/**
 * A request to a scoped route without a usable bearer token: answered 401 with the RFC 6750
 * challenge. The official contract defines no 401 type, so the body is RFC 7807's about:blank.
 */
export class UnauthorizedError extends Error {
  constructor(
    readonly detail: string,
    /** The WWW-Authenticate value. */
    readonly challenge: string,
  ) {
    super(detail);
    this.name = 'UnauthorizedError';
  }
}
