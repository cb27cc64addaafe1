import { currentCorrelationId } from '@pix/observability';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, waitFor } from './testing/harness';

// ADR 17: a cash-in's correlation id is stored with its notification and names every delivery
// line, whichever path claimed it: the worker's claim (a batch), or a slot handed over by the
// previous result.
describe('webhook delivery: correlation ids on the delivery lines', () => {
  let db: TestDatabase;
  let h: Harness;
  const lines: [string | undefined, string][] = [];

  beforeAll(async () => {
    db = await createTestDatabase('whd_correlation');
    h = await Harness.open(db.url);
    h.logger.log = (m) => void lines.push([currentCorrelationId(), m]);
    h.logger.error = (m) => void lines.push([currentCorrelationId(), m]);
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  const deliveredLines = (id: string) => lines.filter(([, m]) => m.startsWith(`webhook ${id}`) && m.includes('attempt 1') && m.includes('delivered'));

  it('names the one request on a lone delivery, and the first (listing all) on a batch of several', async () => {
    const r = await h.receiver({ responder: () => ({ status: 200 }) });
    h.registrations.urls.set('k-corr', r.baseUrl);
    const inputs = [cashIn('k-corr', {}), cashIn('k-corr'), cashIn('k-corr')];
    await h.outbox.enqueueMany([{ ...inputs[0], correlationId: 'req-a' }, { ...inputs[1], correlationId: 'req-b' }, inputs[2]]);
    await h.startWorker({ maxBatch: 50 });
    await waitFor('one POST', () => r.requests.length === 1);
    const batchId = r.requests[0].headers['webhook-id'] as string;
    await waitFor('its line', () => deliveredLines(batchId).length === 1);
    expect(deliveredLines(batchId)[0]).toEqual(['req-a', expect.stringMatching(/\(3 Pix\).*\(correlation ids req-a, req-b\)$/)]);
    const lone = cashIn('k-corr');
    const { id } = await h.outbox.enqueue({ ...lone, correlationId: 'req-lone' });
    await waitFor('its line', () => deliveredLines(id).length === 1);
    expect(deliveredLines(id)[0]).toEqual(['req-lone', expect.not.stringContaining('correlation ids')]);
    await h.stopWorkers();
  });

  it('names each request on deliveries handed over from slot to slot (one at a time, unbatched)', async () => {
    const r = await h.receiver({ responder: () => ({ status: 200 }) });
    h.registrations.urls.set('k-hand', r.baseUrl);
    const inputs = Array.from({ length: 4 }, (_, i) => ({ ...cashIn('k-hand'), correlationId: `req-h${i}` }));
    await h.outbox.enqueueMany(inputs);
    await h.startWorker({ maxBatch: 1, maxInFlightPerKey: 1 });
    await waitFor('four POSTs', () => r.requests.length === 4);
    const ids = r.requests.map((q) => q.headers['webhook-id'] as string);
    await waitFor('their lines', () => ids.every((id) => deliveredLines(id).length === 1));
    expect(ids.map((id) => deliveredLines(id)[0][0])).toEqual(inputs.map((i) => i.correlationId));
  });
});
