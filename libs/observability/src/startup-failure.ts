/**
 * A start-up failure caused by configuration or the environment (a folder the process cannot use,
 * a server it cannot reach), not by our code: the message, one line, names the cause and the fix.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message.replace(/\s*\n\s*/g, '; '), options);
    this.name = 'StartupError';
  }
}

/** Errors the operating system gives about the surroundings (a port taken, a host unknown, a server down). */
const ENVIRONMENT_CODES = new Set([
  'EADDRINUSE',
  'EADDRNOTAVAIL',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** PostgreSQL refusing the connection: bad password or role (28xxx), no such database (3D000), connection exceptions (08xxx), too many clients. */
const isPostgresRefusal = (code: string) => /^(28|3D|08)[0-9A-Z]{3}$/.test(code) || code === '53300' || code === '57P03';

/** The one line a known configuration or environment failure prints, or undefined for a bug (which keeps its stack). */
export function startupFailureLine(error: unknown, depth = 0): string | undefined {
  if (error instanceof StartupError) return error.message;
  if (!error || typeof error !== 'object' || depth > 3) return undefined;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (ENVIRONMENT_CODES.has(code) || isPostgresRefusal(code))) {
    // Node gives an AggregateError without a message when every address of a host refused.
    const text = typeof message === 'string' && message !== '' ? message : Array.isArray(errors) ? errors.map((e) => (e as Error).message).join(', ') : code;
    return `start-up failed: ${text.replace(/\s*\n\s*/g, '; ')}`;
  }
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? undefined : startupFailureLine(cause, depth + 1);
}

/** The last word of a process's start-up: one line and exit status 2 for known failures, the stack and 1 for bugs. */
export function exitOnStartupFailure(error: unknown): never {
  const line = startupFailureLine(error);
  if (line !== undefined) {
    console.error(line);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
}
