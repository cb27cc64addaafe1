import { randomUUID } from 'node:crypto';
import { DuplicateEventIdError, WrongExpectedRevisionError, type EventStore, type EventToAppend } from '@pix/event-store';

export interface ContractSubject {
  store: EventStore;
  cleanup(): Promise<void>;
}

const event = (type = 'Tested', data: Record<string, unknown> = {}): EventToAppend => ({ id: randomUUID(), type, data, metadata: { by: 'contract' } });

/**
 * The behaviour every event-store adapter must have. Stream names are unique per test, so one
 * server can be shared with other data; global reads are filtered to this test's streams.
 */
export function eventStoreContract(adapterName: string, factory: () => Promise<ContractSubject>): void {
  describe(`event-store contract: ${adapterName}`, () => {
    let subject: ContractSubject;
    let store: EventStore;
    let prefix: string;
    beforeAll(async () => {
      subject = await factory();
      store = subject.store;
    });
    afterAll(async () => subject?.cleanup());
    beforeEach(() => {
      prefix = `contract${randomUUID().replace(/-/g, '')}`;
    });
    const stream = (n = 'a') => `${prefix}-${n}`;

    it('reads a stream that does not exist as empty', async () => {
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('appends to a new stream with no_stream and reads events back in order with their data', async () => {
      const events = [event('A', { n: 1, nested: { ok: true } }), event('B', { n: 2 })];
      const result = await store.appendToStream(stream(), events, 'no_stream');
      expect(result.nextExpectedRevision).toBe(1n);
      const read = await store.readStream(stream());
      expect(read.map((e) => [e.id, e.type, e.revision, e.streamId])).toEqual([
        [events[0].id, 'A', 0n, stream()],
        [events[1].id, 'B', 1n, stream()],
      ]);
      expect(read[0].data).toEqual({ n: 1, nested: { ok: true } });
      expect(read[0].metadata).toMatchObject({ by: 'contract' });
      expect(read[0].recordedAt).toBeInstanceOf(Date);
    });

    it('reads a stream from a revision on (inclusive), and nothing past its end', async () => {
      const events = [event('A'), event('B'), event('C')];
      await store.appendToStream(stream(), events, 'no_stream');
      expect((await store.readStream(stream(), { fromRevision: 1n })).map((e) => [e.id, e.revision])).toEqual([
        [events[1].id, 1n],
        [events[2].id, 2n],
      ]);
      expect((await store.readStream(stream(), { fromRevision: 0n })).length).toBe(3);
      expect(await store.readStream(stream(), { fromRevision: 3n })).toEqual([]);
      expect(await store.readStream(stream('b'), { fromRevision: 1n })).toEqual([]);
    });

    it('rejects no_stream when the stream exists, and stream_exists when it does not', async () => {
      await store.appendToStream(stream(), [event()], 'no_stream');
      await expect(store.appendToStream(stream(), [event()], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.appendToStream(stream('b'), [event()], 'stream_exists')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(store.appendToStream(stream(), [event()], 'stream_exists')).resolves.toMatchObject({ nextExpectedRevision: 1n });
    });

    it('appends at an exact revision and rejects a stale one, telling the actual revision', async () => {
      await store.appendToStream(stream(), [event(), event()], 'no_stream');
      await store.appendToStream(stream(), [event()], 1n);
      const error = await store.appendToStream(stream(), [event()], 1n).catch((e) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error.actual).toBe(2n);
      expect((await store.readStream(stream())).length).toBe(3);
    });

    it('appends with any whatever the state', async () => {
      await store.appendToStream(stream(), [event()], 'any');
      const r = await store.appendToStream(stream(), [event()], 'any');
      expect(r.nextExpectedRevision).toBe(1n);
    });

    it('treats appending the same event ids again as an idempotent no-op', async () => {
      const events = [event(), event()];
      const first = await store.appendToStream(stream(), events, 'no_stream');
      const again = await store.appendToStream(stream(), events, 'no_stream');
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(store.comparePositions(again.position, first.position)).toBe(0);
      expect((await store.readStream(stream())).length).toBe(2);
    });

    it('rejects reusing an event id in the same stream at another position', async () => {
      const e = event();
      await store.appendToStream(stream(), [e], 'no_stream');
      await store.appendToStream(stream(), [event()], 0n);
      const error = await store.appendToStream(stream(), [e], 1n).catch((x) => x);
      expect(error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError).toBe(true);
    });

    it('lets exactly one of many concurrent writers at the same revision win', async () => {
      await store.appendToStream(stream(), [event()], 'no_stream');
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => store.appendToStream(stream(), [event()], 0n)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(stream())).length).toBe(2);
    });

    it('never loses an append among concurrent writers using any', async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.appendToStream(stream(), [event('N', { i })], 'any')));
      const read = await store.readStream(stream());
      expect(read.map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i)));
      expect(new Set(read.map((e) => e.data.i)).size).toBe(20);
    });

    it('reads all events in global order after an exclusive checkpoint, page by page', async () => {
      const before = await store.appendToStream(stream('marker'), [event()], 'no_stream');
      for (let i = 0; i < 5; i++) await store.appendToStream(stream(i % 2 ? 'x' : 'y'), [event('G', { i })], 'any');
      const seen: number[] = [];
      let after = before.position;
      // Other transactions on the server may briefly hold back visibility: wait, never skip.
      for (const deadline = Date.now() + 10_000; seen.length < 5 && Date.now() < deadline; ) {
        const page = await store.readAll({ after, maxCount: 2 });
        if (page.length === 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        expect(page.length).toBeLessThanOrEqual(2);
        for (const e of page) {
          expect(store.comparePositions(e.position, after)).toBeGreaterThan(0);
          if (e.streamId.startsWith(prefix)) seen.push(e.data.i as number);
          after = e.position;
        }
      }
      expect(seen).toEqual([0, 1, 2, 3, 4]);
    });

    it('keeps per-stream order in the global order', async () => {
      const before = await store.appendToStream(stream('m'), [event()], 'no_stream');
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.appendToStream(stream(), [event('N', { i })], 'any')));
      const revisions: bigint[] = [];
      let after = before.position;
      for (const deadline = Date.now() + 10_000; revisions.length < 10 && Date.now() < deadline; ) {
        const page = await store.readAll({ after, maxCount: 1000 });
        if (page.length === 0) await new Promise((r) => setTimeout(r, 20));
        for (const e of page) {
          if (e.streamId === stream()) revisions.push(e.revision);
          after = e.position;
        }
      }
      expect(revisions).toEqual([...revisions].sort((a, b) => (a < b ? -1 : 1)));
      expect(revisions).toHaveLength(10);
    });

    it('wakes listeners after an append', async () => {
      const woken = new Promise<void>((resolve) => {
        const off = store.onAppended(() => {
          off();
          resolve();
        });
      });
      await store.appendToStream(stream(), [event()], 'any');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((r) => (timer = setTimeout(() => r('timeout'), 5000)));
      await expect(Promise.race([woken.then(() => 'woken'), timeout])).resolves.toBe('woken');
      clearTimeout(timer);
    });
  });
}
