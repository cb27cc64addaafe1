import type { EventStore, GlobalPosition, RecordedEvent } from './port';
import type { Snapshotting } from './snapshots';
import { typeEvents, type DomainEvent, type Evolver, type Recorded, type TypedStream } from './typed';

/** What a command decides on: the state, the events read (after the snapshot, if one was used), the revision and position of the last. */
export interface Aggregate<S, E extends DomainEvent> {
  state: S;
  recorded: Recorded<E>[];
  /** Every event of the stream, when no snapshot was used (inline projections fold them). */
  all?: RecordedEvent[];
  last: bigint;
  lastPosition?: GlobalPosition;
  /** The snapshot's revision (-1: none was used). */
  snapshotAt: bigint;
}

/**
 * The stream folded with `evolve`: from its snapshot when there is one whose event the stream
 * still holds at its revision (read from there, that event included, to check), else whole.
 */
export async function aggregate<E extends DomainEvent, S>(store: EventStore, stream: TypedStream<E>, decider: Evolver<E, S>, snapshots?: Snapshotting<S>): Promise<Aggregate<S, E>> {
  if (snapshots) {
    const fromSnapshot = await fromItsSnapshot(store, stream, decider, snapshots);
    if (fromSnapshot) return fromSnapshot;
  }
  const raw = await store.readStream(stream.id);
  if (snapshots) {
    if (raw.length < snapshots.every) shortStreamsOf(snapshots).add(stream.id);
    else shortStreamsOf(snapshots).delete(stream.id);
  }
  const recorded = typeEvents(stream, raw);
  const state = recorded.reduce<S>((s, e) => decider.evolve(s, e), decider.initialState);
  const last = raw[raw.length - 1];
  return { state, recorded, all: raw, last: last ? last.revision : -1n, lastPosition: last?.position, snapshotAt: -1n };
}

/** The stream folded from its usable snapshot; undefined when it has none (or is known short). */
async function fromItsSnapshot<E extends DomainEvent, S>(store: EventStore, stream: TypedStream<E>, decider: Evolver<E, S>, snapshots: Snapshotting<S>): Promise<Aggregate<S, E> | undefined> {
  if (shortStreamsOf(snapshots).has(stream.id)) return undefined;
  const snapshot = await snapshots.store.read(stream.id, snapshots.version).catch(() => undefined);
  const from = snapshot && snapshots.restore(snapshot.state);
  if (!snapshot || from === undefined) return undefined;
  const raw = await store.readStream(stream.id, { fromRevision: snapshot.revision });
  if (raw[0]?.revision !== snapshot.revision || raw[0].id !== snapshot.eventId) return undefined;
  const recorded = typeEvents(stream, raw.slice(1));
  const last = raw[raw.length - 1];
  return { state: recorded.reduce<S>((s, e) => decider.evolve(s, e), from), recorded, last: last.revision, lastPosition: last.position, snapshotAt: snapshot.revision };
}

/**
 * Per snapshotting, the streams last read whole and found shorter than `every`: they have no
 * snapshot to ask for, so the next read is one round trip, not two (most webhook keys and batches
 * are short; the notifier reads a key's registration at every delivery). One that grew meanwhile
 * is read whole once more, found long, and then snapshotted. Bounded: cleared past 10,000 streams.
 */
const shortStreams = new WeakMap<object, Set<string>>();
function shortStreamsOf(snapshots: object): Set<string> {
  let short = shortStreams.get(snapshots);
  if (!short || short.size > 10_000) shortStreams.set(snapshots, (short = new Set()));
  return short;
}

/** A new snapshot at `revision` once `every` events were folded past the last one (a cache: a failed write is only a missed one). */
export async function snapshotIfDue<S>(streamId: string, snapshots: Snapshotting<S> | undefined, read: { snapshotAt: bigint }, state: S, revision: bigint, eventId: () => string | undefined) {
  if (!snapshots || revision - read.snapshotAt < BigInt(snapshots.every)) return;
  shortStreams.get(snapshots)?.delete(streamId); // long now: its next read asks for the snapshot
  const id = eventId();
  if (id !== undefined) await snapshots.store.write(streamId, snapshots.version, { revision, eventId: id, state }).catch(() => undefined);
}

/**
 * The aggregate's current state, folded from its stream by its own evolve (from its snapshot,
 * when `snapshots` is given: `events` are then those after it, and a long read takes a new one).
 */
export async function aggregateStream<E extends DomainEvent, S>(
  store: EventStore,
  stream: TypedStream<E>,
  decider: Evolver<E, S>,
  snapshots?: Snapshotting<S>,
): Promise<{ state: S; events: Recorded<E>[] }> {
  const read = await aggregate(store, stream, decider, snapshots);
  await snapshotIfDue(stream.id, snapshots, read, read.state, read.last, () => read.recorded[read.recorded.length - 1]?.id);
  return { state: read.state, events: read.recorded };
}
