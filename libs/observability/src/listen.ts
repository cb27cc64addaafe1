import { isIP, createServer } from 'node:net';
import { StartupError } from './startup-failure';

/** A name or address a server may listen on: letters, digits, dots and hyphens, or an IP address. */
export const isListenHost = (host: string): boolean => isIP(host) !== 0 || /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host);

/** Where a process listens, and the settings that chose it (named in a failure). */
export interface ListenTarget {
  port: number;
  host: string;
  portSetting: string;
}

/** The operating system's refusal to listen, as one line that names the setting to change; other errors unchanged. */
export function explainListenFailure(error: unknown, { port, host, portSetting }: ListenTarget): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new StartupError(`start-up failed: ${portSetting} ${port} is already in use on ${host} (EADDRINUSE: another process listens there). Fix: stop that process, or set ${portSetting} to a free port`, { cause: error });
  if (code === 'EACCES') return new StartupError(`start-up failed: ${portSetting} ${port} on ${host} is not allowed to this user (EACCES: ports below 1024 need privileges). Fix: set ${portSetting} to 1024 or above`, { cause: error });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new StartupError(`start-up failed: HOST ${host} is not an address of this machine (${code}). Fix: set HOST to one of its addresses, or 0.0.0.0`, { cause: error });
  return error;
}

/**
 * Fails before anything starts when the port is taken, so the process never logs that it
 * started (Nest says so before it binds) and starts no database for nothing. Listening itself
 * goes through explainListenFailure too: another process may take the port in between.
 */
export async function assertCanListen(target: ListenTarget): Promise<void> {
  if (target.port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(explainListenFailure(error, target)));
    probe.listen({ port: target.port, host: target.host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
