/**
 * Server-less checks of the EventStoreDB adapter: the pure mappings, and the shared contract run
 * against an in-memory stand-in for the gRPC client that models the server's documented append
 * rules (positional idempotency, id-cache idempotency for any/stream_exists, append when
 * expected === current). It checks the adapter's own logic, not the real server: that is
 * eventstoredb.int.ts's job.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import {
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventData,
  type EventStoreDBClient,
  type Position,
} from '@eventstore/db-client';
import { eventStoreContract } from '@pix/testing';
import { isConnectionError } from '../postgres/connection-errors';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { comparePositions, decodePosition, encodePosition, fromEsdb, ORIGINAL_ID_KEY, toEsdbId, toEventData } from './mapping';

interface Rec {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: true;
  created: Date;
  position: Position;
}

class FakeEsdb {
  private readonly all: Rec[] = [];
  private readonly streams = new Map<string, Rec[]>();
  private readonly subs = new Set<EventEmitter>();
  private appends = 0;

  appendToStream(streamName: string, events: EventData[], { expectedRevision }: { expectedRevision: AppendExpectedRevision }) {
    const stream = this.streams.get(streamName) ?? [];
    const cur = BigInt(stream.length - 1);
    const fail = () =>
      Promise.reject(new WrongExpectedVersionError(undefined, { streamName, expected: expectedRevision, current: cur < 0n ? 'no_stream' : cur }));
    const replay = (from: number) => {
      const found = events.every((e, i) => stream[from + i]?.id === e.id);
      const last = stream[from + events.length - 1];
      return found ? Promise.resolve({ success: true, nextExpectedRevision: last.revision, position: last.position }) : fail();
    };
    if (expectedRevision === 'any' || expectedRevision === 'stream_exists') {
      if (expectedRevision === 'stream_exists' && cur < 0n) return fail();
      const first = stream.findIndex((r) => r.id === events[0].id);
      if (first >= 0) return replay(first);
    } else {
      const expected = expectedRevision === 'no_stream' ? -1n : expectedRevision;
      if (expected < cur) return replay(Number(expected + 1n));
      if (expected > cur) return fail();
    }
    for (const e of events) this.write(streamName, e.id, e.type, e.data, e.metadata);
    // Interleave system records, as a real $all has them.
    if (++this.appends % 3 === 0) this.write('$stats-fake', `00000000-0000-4000-8000-${String(this.appends).padStart(12, '0')}`, '$statsCollected', {}, undefined);
    const written = this.streams.get(streamName) ?? [];
    const last = written[written.length - 1];
    return Promise.resolve({ success: true, nextExpectedRevision: last.revision, position: last.position });
  }

  readStream(name: string, o: { fromRevision: bigint | 'start'; maxCount?: number }) {
    const stream = this.streams.get(name);
    if (!stream) return Readable.from((async function* () { throw new StreamNotFoundError(undefined, name); })());
    const from = o.fromRevision === 'start' ? 0 : Number(o.fromRevision);
    return Readable.from(stream.slice(from, from + (o.maxCount ?? stream.length)).map((event) => ({ event })));
  }

  readAll(o: { fromPosition: Position | 'start'; maxCount: number }) {
    const start = o.fromPosition;
    const rest = start === 'start' ? this.all : this.all.filter((r) => comparePositions(encodePosition(r.position), encodePosition(start)) >= 0);
    return Readable.from(rest.slice(0, o.maxCount).map((event) => ({ event })));
  }

  subscribeToAll() {
    const sub = Object.assign(new EventEmitter(), { unsubscribe: async () => void this.subs.delete(sub) });
    this.subs.add(sub);
    setImmediate(() => sub.emit('confirmation'));
    return sub;
  }

  async dispose() {
    this.subs.clear();
  }

  private write(streamId: string, id: string, type: string, data: unknown, metadata: unknown) {
    const stream = this.streams.get(streamId) ?? [];
    this.streams.set(streamId, stream);
    const p = BigInt(this.all.length * 100 + 7);
    const rec: Rec = { streamId, id, revision: BigInt(stream.length), type, data, metadata, isJson: true, created: new Date(), position: { commit: p, prepare: p } };
    stream.push(rec);
    this.all.push(rec);
    if (!type.startsWith('$')) for (const s of this.subs) s.emit('data', { event: rec });
  }
}

const fakeStore = () => new EventStoreDbEventStore(new FakeEsdb() as unknown as EventStoreDBClient, { readAllPageSize: 2 });

eventStoreContract('EventStoreDB adapter on an in-memory fake client', async () => {
  const store = fakeStore();
  return { store, cleanup: () => store.close() };
});

describe('EventStoreDB mappings', () => {
  it('encodes positions so that string order and comparePositions agree', () => {
    const ps: Position[] = [
      { commit: 0n, prepare: 0n },
      { commit: 9n, prepare: 9n },
      { commit: 10n, prepare: 3n },
      { commit: 10n, prepare: 12n },
      { commit: 9_223_372_036_854_775_807n, prepare: 1n },
    ];
    const enc = ps.map(encodePosition);
    expect([...enc].sort()).toEqual(enc);
    for (let i = 1; i < enc.length; i++) expect(comparePositions(enc[i - 1], enc[i])).toBeLessThan(0);
    expect(comparePositions(enc[2], '10/3')).toBe(0);
    expect(decodePosition(enc[3])).toEqual(ps[3]);
    expect(() => decodePosition('nonsense')).toThrow(TypeError);
  });

  it('keeps canonical UUIDs and maps other ids to a stable UUID, restoring them on read', () => {
    const uuid = '0b0c6a4e-2f3a-4d1b-9c7e-5f6a7b8c9d0e';
    expect(toEsdbId(uuid)).toBe(uuid);
    expect(toEsdbId('cobv:abc:1')).toBe(toEsdbId('cobv:abc:1'));
    expect(toEsdbId('cobv:abc:1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const data = toEventData({ id: 'cobv:abc:1', type: 'T', data: { a: 1 }, metadata: { m: 2 } });
    expect(data.metadata).toEqual({ m: 2, [ORIGINAL_ID_KEY]: 'cobv:abc:1' });
    const rec = { streamId: 's', id: data.id, revision: 0n, type: 'T', data: { a: 1 }, metadata: data.metadata, isJson: true as const, created: new Date(0), position: { commit: 5n, prepare: 5n } };
    expect(fromEsdb(rec)).toMatchObject({ id: 'cobv:abc:1', metadata: { m: 2 }, position: encodePosition(rec.position) });
  });

  it('rejects reusing an id with different content at the same place', async () => {
    const store = fakeStore();
    await store.appendToStream('s', [{ id: 'x-1', type: 'T', data: { a: 1 } }], 'no_stream');
    await expect(store.appendToStream('s', [{ id: 'x-1', type: 'T', data: { a: 1 } }], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(store.appendToStream('s', [{ id: 'x-1', type: 'T', data: { a: 2 } }], 'no_stream')).rejects.toMatchObject({ name: 'DuplicateEventIdError' });
    await store.close();
  });
});

describe('EventStoreDB appends at an exact revision (fake client: counts our calls, not the server)', () => {
  it("checks reused ids against the caller's whole prior read instead of reading the stream again", async () => {
    const fake = new FakeEsdb();
    const store = new EventStoreDbEventStore(fake as unknown as EventStoreDBClient);
    await store.appendToStream('s', [{ id: 'a-1', type: 'T', data: {} }], 'no_stream');
    const prior = await store.readStream('s');
    const reads = jest.spyOn(fake, 'readStream');
    await store.appendToStream('s', [{ id: 'a-2', type: 'T', data: {} }], 0n, { prior });
    expect(reads).toHaveBeenCalledTimes(1); // the read-back of what was appended
    await expect(store.appendToStream('s', [{ id: 'a-1', type: 'T', data: {} }], 1n, { prior: await store.readStream('s') })).rejects.toMatchObject({ name: 'DuplicateEventIdError' });
    reads.mockClear();
    await store.appendToStream('s', [{ id: 'a-3', type: 'T', data: {} }], 1n, { prior: prior.slice(1) }); // not whole: read
    expect(reads).toHaveBeenCalledTimes(2);
    await store.close();
  });
});

describe('EventStoreDB positions the server does not know', () => {
  // Servers before 22.6 (and any event not committed by itself) send Position.End (both 2^64-1)
  // on stream reads; the client turns it into a position, never into `undefined`.
  const END = 2n ** 64n - 1n;
  const rec = (position: Position) => ({ streamId: 's', id: '0b0c6a4e-2f3a-4d1b-9c7e-5f6a7b8c9d0e', revision: 0n, type: 'T', data: {}, metadata: undefined, isJson: true as const, created: new Date(0), position });

  it('refuses a stream-read event whose $all position is unknown, instead of a position after every other', () => {
    expect(() => fromEsdb(rec({ commit: END, prepare: END }))).toThrow(/no position/);
    expect(fromEsdb(rec({ commit: END - 1n, prepare: END - 1n })).position).toBe(encodePosition({ commit: END - 1n, prepare: END - 1n }));
  });
});

describe('EventStoreDB reads and appends of streams go to the leader (fake client: the options we pass)', () => {
  it('asks requiresLeader on appends and stream reads, whatever the connection prefers', async () => {
    const fake = new FakeEsdb();
    const store = new EventStoreDbEventStore(fake as unknown as EventStoreDBClient);
    const appends = jest.spyOn(fake, 'appendToStream');
    const reads = jest.spyOn(fake, 'readStream');
    await store.appendToStream('s', [{ id: 'a-1', type: 'T', data: {} }], 'no_stream');
    await store.readStream('s');
    expect(appends.mock.calls.map((c) => c[2])).toEqual([expect.objectContaining({ requiresLeader: true })]);
    expect(reads.mock.calls.length).toBeGreaterThan(0);
    for (const call of reads.mock.calls) expect(call[1]).toMatchObject({ requiresLeader: true });
    await store.close();
  });
});

describe('EventStoreDB reads that never end (fake client: a read the server stops answering)', () => {
  /** A read that delivers one event, then nothing more, ever; records whether it was cancelled. */
  const stalled = () => {
    const read = new Readable({ objectMode: true, read() {} }) as Readable & { cancel(): Promise<void>; cancelled: boolean };
    read.cancelled = false;
    read.cancel = async () => void (read.cancelled = true);
    return read;
  };

  it.each(['readStream', 'readAll'] as const)('%s fails as a connection error past its deadline, and the call is cancelled', async (method) => {
    const fake = new FakeEsdb();
    const read = stalled();
    const store = new EventStoreDbEventStore(fake as unknown as EventStoreDBClient, { readDeadlineMs: 50 });
    jest.spyOn(fake, method).mockReturnValue(read as never);
    const started = Date.now();
    const outcome = method === 'readStream' ? store.readStream('s') : store.readAll({ maxCount: 10 });
    const error = await outcome.then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'ETIMEDOUT', message: expect.stringMatching(/took more than 50 ms; cancelled$/) });
    expect(isConnectionError(error)).toBe(true); // answered 503 by the API, retried by consumers
    expect(read.cancelled).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await store.close();
  });
});
