import dns from 'node:dns';

/** The longest resolving a webhook target may take, A and AAAA asked together. */
export const TARGET_DNS_DEADLINE_MS = 3_000;

/** Resolves a host name to every address DNS gives it; [] when DNS gives none (or not in time). */
export type TargetResolve = (hostname: string) => Promise<dns.LookupAddress[]>;

/**
 * Webhook targets are a customer's names, so they are resolved with c-ares (`dns.Resolver`: its
 * own sockets and time-outs), never getaddrinfo (`dns.lookup`): libuv runs at most two
 * getaddrinfo calls at once per process, for every lookup of the process (database and broker
 * hosts included), and one whose name server never answers holds its slot for the system
 * resolver's whole time-out (10 s with glibc's defaults). Eight PUT /webhook naming such hosts
 * answered after 10, 10, 20, 20, 30, 30, 40 and 40 s, and every other tenant's registration
 * waited behind them (an audit, 2026-11-27); the notifier's connections shared the same queue.
 * Here a name that does not answer costs its own request up to the deadline, and nobody else
 * anything. `/etc/hosts` is not read: what counts is what DNS tells the world.
 */
export function createTargetResolve(options: { servers?: string[]; deadlineMs?: number } = {}): TargetResolve {
  return (hostname) => {
    // One resolver per name: cancel() at the deadline cancels only this name's queries.
    const resolver = new dns.promises.Resolver({ timeout: 1_000, tries: 2 });
    if (options.servers) resolver.setServers(options.servers);
    const deadline = setTimeout(() => resolver.cancel(), options.deadlineMs ?? TARGET_DNS_DEADLINE_MS);
    const ask = (family: 4 | 6) =>
      (family === 4 ? resolver.resolve4(hostname) : resolver.resolve6(hostname)).then(
        (list) => list.map((address) => ({ address, family })),
        () => [] as dns.LookupAddress[],
      );
    return Promise.all([ask(4), ask(6)]).then(([v4, v6]) => [...v4, ...v6]).finally(() => clearTimeout(deadline));
  };
}

/** The resolver both the registration check and the connect-time check use. */
export const resolveTarget = createTargetResolve();
