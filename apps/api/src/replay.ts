import { Pool } from 'pg';
import { EventStoreDbEventStore, PostgresEventStore, type EventStore } from '@pix/event-store';
import { PROJECTIONS, replayProjection } from '@pix/read-models';
import { StartupError } from '@pix/observability';
import { ConfigError, loadAdminConfig } from './config/config';
import { openOperatorDatabase } from './infrastructure/operator-database';
import { replayReporter } from './replay-progress';

/**
 * Operator command: rebuild a read model from the first event while the API keeps serving.
 *   npm run replay -- cobv
 * Production: uses DATABASE_URL (and EVENTSTORE_CONNECTION_STRING), nothing else. Local mode:
 * finds the running server's embedded PostgreSQL through DATA_DIR/runtime.json, or starts it if
 * the server is stopped; a DATA_DIR without one is refused.
 */
async function main(): Promise<void> {
  const [name, ...extra] = process.argv.slice(2);
  // Own names only: `constructor` or `__proto__` would find Object's.
  const projection = name && Object.hasOwn(PROJECTIONS, name) ? PROJECTIONS[name] : undefined;
  if (!projection || extra.length > 0) {
    console.error(`usage: npm run replay -- <projection>\nprojections: ${Object.keys(PROJECTIONS).join(', ')}`);
    process.exit(2);
  }
  // Only where the data is: a production replay needs none of the API's other settings.
  const config = loadAdminConfig(process.env);
  const { databaseUrl, stop: stopEmbedded } = await openOperatorDatabase(config, (line) => console.log(`[replay] ${line}`), { needed: 'always', existing: 'replay' });
  const pool = new Pool({ connectionString: databaseUrl, max: 4, application_name: 'pix-replay' });
  pool.on('error', () => undefined); // an idle connection dropped by a server restart must not end the replay
  const store: EventStore = config.eventStoreConnectionString
    ? EventStoreDbEventStore.fromConnectionString(config.eventStoreConnectionString)
    : await PostgresEventStore.create({ pool, listen: false });
  const started = Date.now();
  // The total for the bar and its ETA: counted on PostgreSQL; EventStoreDB's $all has no cheap count.
  const total = store.name === 'postgresql' ? Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events')).rows[0].n) : undefined;
  console.log(`[replay ${name}] rebuilding ${projection.table} from the first event (${store.name}${total !== undefined ? `, ${total} events` : ''}); the API keeps serving the current table`);
  const progress = replayReporter(name, total);
  const result = await replayProjection(store, pool, projection, { onProgress: (p) => progress.update(p.events, p.eventsPerSecond) });
  progress.done(`[replay ${name}] done: ${result.events} events in ${((Date.now() - started) / 1000).toFixed(1)} s; ${projection.table} switched atomically`);
  await store.close();
  await pool.end();
  await stopEmbedded?.();
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(error.message);
    process.exit(2);
  }
  // One line for the operator (a refused connection, a missing table), not an object dump.
  const code = (error as { code?: unknown })?.code;
  console.error(`[replay] failed: ${(error as Error)?.message ?? String(error)}${typeof code === 'string' ? ` (${code})` : ''}`);
  process.exit(1);
});
