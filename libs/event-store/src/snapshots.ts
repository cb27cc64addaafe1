/**
 * Snapshots: an aggregate's state at a revision of its stream, kept beside the store so a
 * command on a long stream folds only what came after (ADR 6: a batch's stream grows by a round
 * of requests and their decisions at every PUT). A snapshot is a cache: losing one, or finding
 * one that does not match the stream, costs a full read, never a wrong state.
 */
export interface Snapshot {
  /** The revision of the last event folded into `state`. */
  revision: bigint;
  /** That event's id: the stream must still hold it there, or the snapshot is not used. */
  eventId: string;
  /** The state as JSON (the aggregate's `restore` checks its shape). */
  state: unknown;
}

export interface SnapshotStore {
  /** The stream's snapshot of this state version, if any. */
  read(streamId: string, version: string): Promise<Snapshot | undefined>;
  /** Keeps the later of this and the stored snapshot of the same version. */
  write(streamId: string, version: string, snapshot: Snapshot): Promise<void>;
}

/** How the one command handler snapshots one aggregate's streams. */
export interface Snapshotting<S> {
  store: SnapshotStore;
  /** The state's shape: snapshots of another version are not read. */
  version: string;
  /** The state from a snapshot's JSON, or undefined when it is not this version's shape. */
  restore(json: unknown): S | undefined;
  /** A new snapshot once a command has folded at least this many events past the last one. */
  every: number;
}
