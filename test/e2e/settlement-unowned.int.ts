import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { cashIn, sleep } from '../support/cash-in-fixtures';
import { deleteGroups, kafkaBrokers, lockKafka, PspCore, startGroupsAtEnd } from '../support/kafka-client';
import { stopChild } from '../support/notifier-process';

jest.setTimeout(180_000);

const BROKERS = kafkaBrokers();
const METRICS_TOKEN = 'metrics-token-for-the-unowned-e2e-0123';

/**
 * Two deployments sharing a broker (the README's advice for staging and production) each see
 * every Pix of the other, to keys they do not own. One WARN line per such Pix flooded the API's
 * log (27,806 lines in 13 s); they are counted in a metric and summed up instead.
 */
(BROKERS ? describe : describe.skip)('Pix to keys no receiver here owns', () => {
  const group = `settle-unowned-${Date.now().toString(36)}`;
  let unlock: (() => void) | undefined;
  let db: TestDatabase;
  let api: ApiProcess | undefined;
  let psp: PspCore | undefined;

  beforeAll(async () => {
    unlock = await lockKafka(BROKERS!, 600_000);
    psp = await PspCore.connect(BROKERS!);
    await startGroupsAtEnd(BROKERS!, [group]);
    db = await createTestDatabase('settlement_unowned');
    api = await startApiProcess(db.url, await freePort(), { KAFKA_BROKERS: BROKERS!.join(','), SETTLEMENT_GROUP_ID: group, METRICS_TOKEN });
  }, 720_000);

  afterAll(async () => {
    if (api) await stopChild(api.child);
    await psp?.disconnect();
    await deleteGroups(BROKERS!, [group]);
    await db?.drop();
    unlock?.();
  }, 60_000);

  const unownedCount = async () => {
    const text = await (await fetch(`${api!.base.replace(/\/v2$/, '')}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    return Number(/^pix_cash_ins_unowned_total\{service="pix-api"\} (\d+)/m.exec(text)?.[1] ?? NaN);
  };

  it('counts 1,000 of them in pix_cash_ins_unowned_total and logs a few lines, not one per Pix', async () => {
    const keys = ['outro-ambiente@example.com', '+5511999990000'];
    const messages = Array.from({ length: 1000 }, (_, i) => cashIn(`unowned${i}x${Date.now().toString(36)}`.slice(0, 26).padEnd(26, '0'), keys[i % 2]));
    await psp!.publishAll(messages);
    const unownedLines = () => api!.output().split('\n').filter((l) => l.includes('no receiver here owns'));
    let count = NaN;
    // Until all are counted (or, as before the fix, each has its own line).
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(500)) if ((count = await unownedCount()) >= 1000 || unownedLines().length >= 1000) break;
    await sleep(500); // lines still in the pipe
    const lines = unownedLines();
    // The first Pix at once; the rest at most once a minute (one summary if a minute passed).
    expect({ count, lines: lines.length, fewLines: lines.length >= 1 && lines.length <= 3 }).toEqual({ count: 1000, lines: expect.any(Number), fewLines: true });
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(first).toMatchObject({ level: 'warn', context: 'Settlement' });
    expect(messages.some((m) => String(first.msg).includes(m.endToEndId))).toBe(true);
  });
});
