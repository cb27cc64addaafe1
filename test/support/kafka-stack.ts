import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { freePort, startApiProcess, type ApiProcess } from './api-process';
import { contractClient } from './cash-in-fixtures';
import { lockKafka, PspCore } from './kafka-client';
import { startNotifierProcess, stopChild, type NotifierProcess } from './notifier-process';
import { Receiver, selfSignedCertificate } from './receiver';

/**
 * What a production-mode Kafka e2e file runs against: the Kafka lock held, an https receiver with
 * a throw-away CA, a test database, the API as a process (settling cash-ins from Kafka) with the
 * given keys' webhooks registered at `{receiver}/{path}`, and a PSP publisher. Notifiers are
 * started per test (`startNotifier`) and all stopped by `close`, which undoes everything in
 * reverse and never throws.
 */
export class KafkaStack {
  readonly notifiers: NotifierProcess[] = [];

  private constructor(
    private readonly brokers: string[],
    private readonly undo: (() => unknown)[],
    readonly tls: ReturnType<typeof selfSignedCertificate>,
    readonly receiver: Receiver,
    readonly db: TestDatabase,
    readonly api: ApiProcess,
    readonly client: ReturnType<typeof contractClient>,
    readonly psp: PspCore,
  ) {}

  /** `webhooks`: Pix key → URL path under the receiver. */
  static async open(brokers: string[], databaseName: string, webhooks: Record<string, string>): Promise<KafkaStack> {
    const undo: (() => unknown)[] = [];
    try {
      const unlock = await lockKafka(brokers, 600_000);
      undo.push(unlock);
      const tls = selfSignedCertificate();
      undo.push(() => tls.remove());
      const receiver = await Receiver.start({ tls });
      undo.push(() => receiver.close());
      const db = await createTestDatabase(databaseName);
      undo.push(() => db.drop());
      const api = await startApiProcess(db.url, await freePort(), { KAFKA_BROKERS: brokers.join(',') }, Object.keys(webhooks));
      undo.push(() => stopChild(api.child));
      const client = contractClient(api.base, api.headers());
      for (const [chave, path] of Object.entries(webhooks)) {
        const put = await client.request('PUT', `/webhook/${encodeURIComponent(chave)}`, { webhookUrl: `${receiver.url}/${path}` });
        if (put.status !== 200) throw new Error(`webhook of ${chave}: ${put.status} ${JSON.stringify(put.body)}`);
      }
      const psp = await PspCore.connect(brokers);
      undo.push(() => psp.disconnect());
      return new KafkaStack(brokers, undo, tls, receiver, db, api, client, psp);
    } catch (error) {
      await runInReverse(undo);
      throw error;
    }
  }

  /** A production-mode notifier on this stack (database, brokers, the receiver's CA), plus `env`. */
  async startNotifier(env: Record<string, string> = {}): Promise<NotifierProcess> {
    const n = await startNotifierProcess({
      DATABASE_URL: this.db.url,
      KAFKA_BROKERS: this.brokers.join(','),
      NOTIFIER_PORT: String(await freePort()),
      WEBHOOK_CA: this.tls.caPath,
      ...env,
    });
    this.notifiers.push(n);
    return n;
  }

  async close(): Promise<void> {
    await runInReverse([...this.undo, ...this.notifiers.map((n) => () => n.stop())]);
  }
}

async function runInReverse(steps: (() => unknown)[]): Promise<void> {
  for (const step of [...steps].reverse()) await Promise.resolve().then(step).catch((e) => console.error(e));
}
