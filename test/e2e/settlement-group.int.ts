import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { newTxid } from '../support/api-harness';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { cashIn, contractClient, sleep } from '../support/cash-in-fixtures';
import { deleteGroups, kafkaBrokers, lockKafka, PspCore, startGroupsAtEnd } from '../support/kafka-client';
import { stopChild } from '../support/notifier-process';

jest.setTimeout(120_000);

const BROKERS = kafkaBrokers();

/**
 * Two API deployments on one broker (staging and production, two installations): with one
 * settlement group, Kafka split the cash-ins between their databases. Each now names its own
 * (SETTLEMENT_GROUP_ID) and each settles every cash-in.
 */
(BROKERS ? describe : describe.skip)('settlement consumer group (SETTLEMENT_GROUP_ID)', () => {
  const run = Date.now().toString(36);
  const groups = [`settle-a-${run}`, `settle-b-${run}`];
  let unlock: (() => void) | undefined;
  const dbs: TestDatabase[] = [];
  const apis: ApiProcess[] = [];
  let psp: PspCore | undefined;

  beforeAll(async () => {
    unlock = await lockKafka(BROKERS!, 600_000);
    psp = await PspCore.connect(BROKERS!);
    await startGroupsAtEnd(BROKERS!, groups);
    for (const [i, groupId] of groups.entries()) {
      dbs.push(await createTestDatabase(`settlement_group_${i}`));
      apis.push(await startApiProcess(dbs[i].url, await freePort(), { KAFKA_BROKERS: BROKERS!.join(','), SETTLEMENT_GROUP_ID: groupId }));
    }
  }, 720_000);

  afterAll(async () => {
    for (const api of apis) await stopChild(api.child);
    await psp?.disconnect();
    await deleteGroups(BROKERS!, groups);
    for (const db of dbs) await db.drop();
    unlock?.();
  }, 60_000);

  it('reports each deployment in its own group, and both record a cash-in published once', async () => {
    for (const [i, api] of apis.entries()) {
      const ready = (await (await fetch(`${api.base.replace(/\/v2$/, '')}/health/ready`)).json()) as Record<string, unknown>;
      expect(ready[`kafka ${groups[i]}`]).toBe('joined');
      expect(ready['kafka pix-api-settlement']).toBeUndefined();
    }
    const { txid: _none, ...message } = cashIn(newTxid('sg'));
    await psp!.publish(message);
    const recorded = async (api: ApiProcess) => {
      const client = contractClient(api.base, api.headers());
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200))
        if ((await client.request('GET', `/pix/${message.endToEndId}`)).status === 200) return true;
      return false;
    };
    expect(await Promise.all(apis.map(recorded))).toEqual([true, true]);
  });
});
