import { Pool } from 'pg';
import { EventStoreDbEventStore, PostgresEventStore, type EventStore } from '@pix/event-store';
import { StartupError } from '@pix/observability';
import { enableInlineProjections, inlineOn } from '@pix/read-models';
import { NotificationOutbox } from '@pix/webhook-delivery';
import { EXIT, runAdmin, USAGE } from './access/admin/cli';
import { chargesInReadModel } from './access/admin/key-charges';
import { ConfigError, loadAdminConfig } from './config/config';
import { openOperatorDatabase } from './infrastructure/operator-database';
import { LIVE_PROJECTIONS } from './infrastructure/projections';
import { migrateApiSchema } from './infrastructure/schema';

/**
 * Operator command for receivers, Pix keys and OAuth2 clients:
 *   npm run admin -- receiver create --id loja1 --name … --cnpj … --street … --city … --uf SP --cep 01001000
 * Production: EVENTSTORE_CONNECTION_STRING or DATABASE_URL, as the API uses. Local mode: the
 * running server's embedded PostgreSQL (DATA_DIR/runtime.json), or starts it if stopped; a
 * DATA_DIR without one is refused (exit 2).
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    console.log(USAGE);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const config = loadAdminConfig(process.env);
  // Said on every run (stderr, so scripts reading stdout are undisturbed).
  // A DATA_DIR without a database is refused: a new, empty one there took receivers and clients the server never read.
  const { databaseUrl, stop: stopEmbedded } = await openOperatorDatabase(config, (line) => console.error(`admin: ${line}`), { needed: 'without-eventstoredb', existing: 'administer' });
  const pool = databaseUrl ? new Pool({ connectionString: databaseUrl, max: 2, application_name: 'pix-admin' }) : undefined;
  pool?.on('error', () => undefined);
  // The API's schema, so what this command appends reaches the read models as the API's own appends do.
  if (pool) await migrateApiSchema(pool);
  let store: EventStore;
  if (config.eventStoreConnectionString) store = EventStoreDbEventStore.fromConnectionString(config.eventStoreConnectionString);
  else {
    const postgres = await PostgresEventStore.create({ pool: pool!, listen: false });
    // Inline read models (ADR 14) are written by every append, this command's too: a key's webhook
    // it removes leaves GET /v2/webhook's list at once.
    await enableInlineProjections(postgres, pool!, inlineOn(postgres, LIVE_PROJECTIONS));
    store = postgres;
  }
  const notifications = pool ? await NotificationOutbox.create(pool) : undefined;
  try {
    return await runAdmin(argv, { store, notifications, ...(pool ? { charges: chargesInReadModel(pool) } : {}), directoryCacheMs: config.directoryCacheMs }, (l) => console.log(l), (l) => console.error(l));
  } finally {
    await store.close();
    await pool?.end();
    await stopEmbedded?.();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    const refused = error instanceof ConfigError || error instanceof StartupError;
    console.error(refused ? error.message : `admin failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(refused ? EXIT.usage : 3);
  },
);
