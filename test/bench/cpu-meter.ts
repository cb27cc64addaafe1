/**
 * CPU that processes spent during a phase, read from /proc (clock ticks, 100 a second): the
 * apps', the bench's, PostgreSQL's backends of the bench database and the bench's own Kafka broker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** A PostgreSQL backend and the `application_name` its client set (the apps set pix-api, pix-notifier). */
export interface Backend {
  pid: number;
  app: string;
}

/**
 * CPU time (utime + stime) of the named processes from now on, and of the PostgreSQL backends
 * given (those open before the phase: connections opened during it are not counted), also split
 * by the app each serves.
 */
export function cpuMeter(named: Record<string, number | undefined>, backends: Backend[]) {
  const ticks = (pid: number | undefined) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(f[11]) + Number(f[12]); // clock ticks, 100 per second
    } catch {
      return NaN;
    }
  };
  const backendStart = backends.map((b) => ({ ...b, t0: ticks(b.pid) }));
  // A backend gone by the end is left out (its last ticks are not readable).
  const postgres = (app?: string) => backendStart.filter((b) => app === undefined || b.app === app).reduce((sum, b) => sum + ((ticks(b.pid) - b.t0) || 0), 0);
  const apps = [...new Set(backends.map((b) => b.app).filter((a) => a.startsWith('pix-')))].sort();
  const present = Object.entries(named).filter((e): e is [string, number] => e[1] !== undefined);
  const start = Object.fromEntries(present.map(([name, pid]) => [name, ticks(pid)]));
  const startedAt = performance.now();
  return {
    /** CPU per item of each process, and how many of the machine's cores they kept busy together. */
    perItem: (items: number) => {
      const used = [...present.map(([name, pid]) => [name, ticks(pid) - start[name]] as const), ['postgres', postgres()] as const];
      const seconds = (performance.now() - startedAt) / 1000;
      const busy = used.reduce((sum, [, t]) => sum + (t || 0), 0) / 100 / seconds;
      const ms = (t: number) => `${((t * 10) / items).toFixed(2)} ms`;
      const split = apps.map((app) => `${app.slice(4)}'s ${ms(postgres(app))}`).join(', ');
      return `${used.map(([name, t]) => `${name} ${ms(t)}`).join(', ')}${split ? ` (${split})` : ''}; together ${busy.toFixed(2)} of ${availableParallelism()} cores busy`;
    },
  };
}

/** The throw-away broker's JVM (tools/kafka), when the bench started it: its CPU counts too. */
export function kafkaBrokerPid(): number | undefined {
  if (process.env.KAFKA_BROKERS) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('kafka.Kafka')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
