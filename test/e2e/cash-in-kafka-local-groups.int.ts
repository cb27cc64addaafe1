import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { kafkaBrokers, lockKafka, startGroupsAtEnd, deleteGroups, PspCore } from '../support/kafka-client';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { cashIn } from '../support/cash-in-fixtures';
import { localConsumerGroups } from '../../apps/api/src/config/settlement-config';

// Local mode with KAFKA_BROKERS runs settlement and the notifier's intake in the API. Both groups
// come from SETTLEMENT_GROUP_ID and NOTIFIER_GROUP_ID: the intake's was fixed to the notifier
// app's default, so a developer's local instance on a broker shared with a deployment took some
// of that deployment's notifications and sent them to its own webhooks (README audit).
jest.setTimeout(180_000);

const BROKERS = kafkaBrokers();

/** The readiness body once no consumer group of the API is still joining. */
async function joined(api: RunningApi): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 200))) {
    const ready = (await (await fetch(`${api.baseUrl}/health/ready`)).json()) as Record<string, unknown>;
    if (!Object.values(ready).includes('joining')) return ready;
    if (Date.now() > deadline) throw new Error(`groups did not join: ${JSON.stringify(ready)}`);
  }
}

if (!BROKERS) {
  describe('local mode on a shared broker', () => {
    console.warn('cash-in-kafka-local-groups.int.ts NOT RUN: KAFKA_BROKERS is not set (npm test sets it; or start tools/kafka/kafka.js and export it)');
    it.skip('local mode on a shared broker NOT RUN: no KAFKA_BROKERS set', () => undefined);
  });
} else {
  describe('local mode on a shared broker', () => {
    const groups = { SETTLEMENT_GROUP_ID: `local-settlement-${randomUUID()}`, NOTIFIER_GROUP_ID: `local-notifier-${randomUUID()}` };
    let unlock: (() => void) | undefined;
    let api: RunningApi | undefined;

    beforeAll(async () => {
      unlock = await lockKafka(BROKERS, 600_000);
      await startGroupsAtEnd(BROKERS, Object.values(groups)).catch(() => undefined); // no topic yet: nothing to skip
      api = await startApi({ env: { KAFKA_BROKERS: BROKERS.join(','), ...groups } });
    }, 720_000);

    afterAll(async () => {
      await api?.stop();
      await deleteGroups(BROKERS, Object.values(groups));
      unlock?.();
    }, 120_000);

    it('consumes in the groups it is given, and not in the notifier app\'s pix-notifier', async () => {
      const ready = await joined(api!);
      expect(ready).toMatchObject({ [`kafka ${groups.SETTLEMENT_GROUP_ID}`]: 'joined', [`kafka ${groups.NOTIFIER_GROUP_ID}`]: 'joined' });
      expect(ready).not.toHaveProperty('kafka pix-notifier');

      const admin = new Kafka({ clientId: 'test-groups', brokers: BROKERS, logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      try {
        const { groups: described } = await admin.describeGroups([...Object.values(groups), 'pix-notifier', 'pix-api-settlement']);
        const apiMembers = Object.fromEntries(described.map((g) => [g.groupId, g.members.filter((m) => m.clientId === 'pix-api').length]));
        expect(apiMembers).toEqual({ [groups.SETTLEMENT_GROUP_ID]: 1, [groups.NOTIFIER_GROUP_ID]: 1, 'pix-notifier': 0, 'pix-api-settlement': 0 });
      } finally {
        await admin.disconnect();
      }
    });
  });

  // The defaults were the deployment's own groups: a developer's instance on a shared broker
  // settled 3 of a deployment's 6 cash-ins as no receiver's here (operator audit).
  describe('local mode on a shared broker, no groups named', () => {
    let dataDir: string;
    let groups: string[] = [];
    let unlock: (() => void) | undefined;
    let api: RunningApi | undefined;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pix-local-groups-'));
      const own = localConsumerGroups(dataDir);
      groups = [own.settlementGroupId, own.notifierGroupId];
      unlock = await lockKafka(BROKERS, 600_000);
      await startGroupsAtEnd(BROKERS, groups).catch(() => undefined);
      api = await startApi({ env: { KAFKA_BROKERS: BROKERS.join(','), DATA_DIR: dataDir } });
    }, 720_000);

    afterAll(async () => {
      await api?.stop();
      await deleteGroups(BROKERS, groups);
      unlock?.();
      rmSync(dataDir, { recursive: true, force: true });
    }, 120_000);

    it("consumes in groups of its own, derived from DATA_DIR, never in the deployment's pix-api-settlement or pix-notifier", async () => {
      expect(groups).toEqual([expect.stringMatching(/^pix-local-[0-9a-f]{8}-settlement$/), expect.stringMatching(/^pix-local-[0-9a-f]{8}-notifier$/)]);
      const ready = await joined(api!);
      expect(ready).toMatchObject({ [`kafka ${groups[0]}`]: 'joined', [`kafka ${groups[1]}`]: 'joined' });
      expect(Object.keys(ready).filter((k) => k.startsWith('kafka ')).sort()).toEqual(groups.map((g) => `kafka ${g}`).sort());
    });
  });

  // A new DATA_DIR's groups read the whole topic: on a shared broker, a developer's first start
  // recorded every Pix the topic still held (payers included) as no receiver's here (an audit).
  describe('local mode on a shared broker, a new DATA_DIR', () => {
    let dataDir: string;
    let groups: string[] = [];
    let unlock: (() => void) | undefined;
    let api: RunningApi | undefined;
    let psp: PspCore | undefined;
    const before = cashIn(newTxid('hist'), LOCAL_KEY);

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pix-local-new-'));
      const own = localConsumerGroups(dataDir);
      groups = [own.settlementGroupId, own.notifierGroupId];
      unlock = await lockKafka(BROKERS, 600_000);
      psp = await PspCore.connect(BROKERS);
      await psp.publish(before); // on the topic before the instance starts
      api = await startApi({ env: { KAFKA_BROKERS: BROKERS.join(','), DATA_DIR: dataDir } });
    }, 720_000);

    afterAll(async () => {
      await api?.stop();
      await psp?.disconnect();
      await deleteGroups(BROKERS, groups);
      unlock?.();
      rmSync(dataDir, { recursive: true, force: true });
    }, 120_000);

    it('starts its new groups where the topic ended at start-up: its own cash-ins settle, what came before is not read', async () => {
      await joined(api!);
      const txid = newTxid('own');
      expect((await api!.request('PUT', `/cobv/${txid}`, validCobV())).status).toBe(201);
      const paid = await fetch(`${api!.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ txid }) });
      expect(paid.status).toBe(202);
      for (const deadline = Date.now() + 30_000; (await api!.request('GET', `/cobv/${txid}`)).body.status !== 'CONCLUIDA'; await new Promise((r) => setTimeout(r, 100)))
        if (Date.now() > deadline) throw new Error('own cash-in not settled');
      expect((await api!.request('GET', `/pix/${before.endToEndId}`)).status).toBe(404);
    });
  });
}
