import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { newTxid, validCobV } from '../support/api-harness';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { lockKafka } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';

jest.setTimeout(120_000);

/** A restarted process answers HTTP (and the API serves writes) within this bound. */
const RESTART_BOUND_MS = 8000;
const brokers = process.env.KAFKA_BROKERS;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * kill -9 and restart of an API and a notifier that consume Kafka: the consumer group only lets
 * the new member in after the killed member's session times out (~30 s), and start-up used to
 * wait for that. Now HTTP comes first and the groups join behind it. (The shared broker is not
 * touched: only our own processes are killed.)
 */
(brokers ? describe : describe.skip)('faults: restart fast after kill -9', () => {
  let db: TestDatabase;
  let api: ApiProcess | undefined;
  let notifier: NotifierProcess | undefined;
  let unlock: (() => void) | undefined;
  beforeAll(async () => {
    // Our API joins the shared group pix-api-settlement: no other suite may use the broker meanwhile.
    unlock = await lockKafka(brokers!.split(','), 600_000);
    db = await createTestDatabase('faults_restart');
  }, 620_000);
  afterAll(async () => {
    await api?.kill();
    await notifier?.kill();
    await db.drop();
    unlock?.();
  });

  it('API and notifier answer at once after kill -9; readiness reports their consumer groups joining, then joined', async () => {
    const group = `faults-restart-${Date.now()}`;
    const apiPort = await freePort();
    const notifierEnv = { DATABASE_URL: db.url, KAFKA_BROKERS: brokers!, NOTIFIER_PORT: String(await freePort()), NOTIFIER_GROUP_ID: group };
    api = await startApiProcess(db.url, apiPort, { KAFKA_BROKERS: brokers! });
    notifier = await startNotifierProcess(notifierEnv);
    const ready = async () => (await fetch(`http://127.0.0.1:${apiPort}/health/ready`)).json() as Promise<Record<string, unknown>>;
    for (const deadline = Date.now() + 60_000; (await ready())['kafka pix-api-settlement'] !== 'joined' && Date.now() < deadline; ) await sleep(200);
    expect(await ready()).toMatchObject({ status: 'ok', 'kafka pix-api-settlement': 'joined' });

    await api.kill('SIGKILL');
    await notifier.kill('SIGKILL');
    let started = Date.now();
    api = await startApiProcess(db.url, apiPort, { KAFKA_BROKERS: brokers! }, undefined, false);
    const put = await fetch(`${api.base}/cobv/${newTxid('r')}`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(validCobV()) });
    const apiUpIn = Date.now() - started;
    expect(put.status).toBe(201);
    started = Date.now();
    notifier = await startNotifierProcess(notifierEnv, false);
    const notifierUpIn = Date.now() - started;
    expect({ apiUpIn: apiUpIn < RESTART_BOUND_MS, notifierUpIn: notifierUpIn < RESTART_BOUND_MS }).toEqual({ apiUpIn: true, notifierUpIn: true });
    // The old members' sessions still hold the groups: readiness says so instead of hiding it.
    expect((await ready())['kafka pix-api-settlement']).toBe('joining');
    expect((await notifier.get('/health')).body.kafka.consumer).toBe('joining');
    // ... and says when they are in.
    for (const deadline = Date.now() + 60_000; (await ready())['kafka pix-api-settlement'] !== 'joined' && Date.now() < deadline; ) await sleep(250);
    expect((await ready())['kafka pix-api-settlement']).toBe('joined');
    for (const deadline = Date.now() + 30_000; (await notifier.get('/health')).body.kafka.consumer !== 'joined' && Date.now() < deadline; ) await sleep(250);
    expect((await notifier.get('/health')).body.kafka.consumer).toBe('joined');
    console.log(JSON.stringify({ apiUpIn, notifierUpIn }));
  });
});
