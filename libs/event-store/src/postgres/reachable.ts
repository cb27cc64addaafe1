import { Client } from 'pg';
import { StartupError } from '@pix/observability';

/** A connection URL fit for a log line: the password replaced by `***`. */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** Before anything else uses it: a database that cannot be reached is the environment's fault, said in one line that names the setting. */
export async function assertPostgresReachable(url: string, setting = 'DATABASE_URL'): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const { message, errors } = error as { message?: string; errors?: Error[] };
    const reason = message || errors?.map((e) => e.message).join(', ') || String(error);
    throw new StartupError(`cannot reach the database at ${setting} ${withoutPassword(url)} (${reason}). Fix: start it, or correct ${setting}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}
