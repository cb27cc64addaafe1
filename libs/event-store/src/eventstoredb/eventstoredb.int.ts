/**
 * The shared event-store contract against EventStoreDB: a server named by
 * EVENTSTORE_CONNECTION_STRING, else a throwaway container (needs a Docker engine), else a skip
 * that says so loudly, so that a green run is never mistaken for a verified adapter.
 */
import { spawnSync } from 'node:child_process';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { eventStoreContract } from '@pix/testing';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

// A test entry point, not library code: which server to test against is the runner's choice.
// eslint-disable-next-line no-restricted-properties
const { EVENTSTORE_CONNECTION_STRING: configured, EVENTSTORE_IMAGE } = process.env;

const NOT_RUN = 'EventStoreDB contract suite NOT RUN: no EVENTSTORE_CONNECTION_STRING and no Docker engine';
// 24.10 is the last EventStoreDB-branded LTS; later releases ship as KurrentDB under another name.
const IMAGE = EVENTSTORE_IMAGE ?? 'eventstore/eventstore:24.10.0-bookworm-slim';
const HTTP_PORT = 2113;

// Subscriptions and the contract's polling loops outlast jest's default 5 s.
jest.setTimeout(30_000);

async function subject(connectionString: string) {
  const store = EventStoreDbEventStore.fromConnectionString(connectionString);
  return { store, cleanup: () => store.close() };
}

/**
 * Jest collects tests synchronously while getContainerRuntimeClient() is async, so the question
 * "is there a Docker engine?" is asked of testcontainers itself in a short-lived child process.
 */
function dockerAvailable(): boolean {
  const tc = JSON.stringify(require.resolve('testcontainers'));
  const script = `require(${tc}).getContainerRuntimeClient().then(() => process.exit(0), () => process.exit(1));`;
  return spawnSync(process.execPath, ['-e', script], { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

if (configured) {
  // Credentials, if any, stay out of test names.
  const shown = configured.replace(/\/\/[^@/]*@/, '//***@');
  eventStoreContract(`EventStoreDB (${shown})`, () => subject(configured));
} else if (dockerAvailable()) {
  let container: StartedTestContainer | undefined;

  // File-level hooks wrap the contract's own beforeAll/afterAll: one server for the whole suite.
  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_RUN_PROJECTIONS: 'None',
        EVENTSTORE_MEM_DB: 'true',
        EVENTSTORE_CLUSTER_SIZE: '1',
      })
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(Wait.forHttp('/health/live', HTTP_PORT).forStatusCodeMatching((s) => s >= 200 && s < 300))
      .withStartupTimeout(120_000)
      .start();
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  }, 60_000);

  eventStoreContract(`EventStoreDB container (${IMAGE})`, () => {
    if (!container) throw new Error('EventStoreDB container did not start');
    return subject(`esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`);
  });
} else {
  const bar = '!'.repeat(NOT_RUN.length + 6);
  console.warn(`\n${bar}\n!! ${NOT_RUN} !!\n${bar}\n`);
  it.skip(NOT_RUN, () => undefined);
}
