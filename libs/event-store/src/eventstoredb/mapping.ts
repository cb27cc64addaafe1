/**
 * Pure conversions between the port's shapes and @eventstore/db-client's. Kept apart from the
 * adapter so they can be unit-tested without a server.
 */
import { createHash } from 'node:crypto';
import {
  ANY,
  jsonEvent,
  NO_STREAM,
  STREAM_EXISTS,
  type AppendExpectedRevision,
  type EventData,
  type Position,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError, type EventToAppend, type ExpectedRevision, type GlobalPosition, type RecordedEvent } from '../port';

/**
 * EventStoreDB only accepts UUID event ids (and returns them lower-case). Other ids are mapped to
 * a deterministic UUID, so retries still hit the server's idempotency check, and the caller's id
 * travels in the metadata under this key (stripped again on read).
 */
export const ORIGINAL_ID_KEY = '$pixEventId';
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID_NAMESPACE = 'pix-cobv/event-store/eventstoredb';

export function toEsdbId(id: string): string {
  if (CANONICAL_UUID.test(id)) return id;
  // Name-based UUID with the RFC 4122 version-5 layout (SHA-1 of a fixed namespace + the id).
  const h = createHash('sha1').update(ID_NAMESPACE).update('\0').update(id).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export function toEventData(e: EventToAppend): EventData {
  const id = toEsdbId(e.id);
  const metadata = id === e.id ? e.metadata : { ...(e.metadata ?? {}), [ORIGINAL_ID_KEY]: e.id };
  return jsonEvent({ id, type: e.type, data: e.data, metadata });
}

export function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (typeof expected === 'bigint') return expected;
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
  }
}

export function wrongRevision(streamId: string, expected: ExpectedRevision, actual: bigint | 'no_stream'): WrongExpectedRevisionError {
  // Servers report a missing stream as "no_stream" or as revision -1 depending on the code path.
  return new WrongExpectedRevisionError(streamId, expected, actual === 'no_stream' || actual < 0n ? 'no_stream' : actual);
}

/**
 * "<commit>/<prepare>", each zero-padded to 20 digits (positions are non-negative int64s, at most
 * 19 digits), so that plain string comparison orders positions too.
 */
export function encodePosition(p: Position): GlobalPosition {
  return `${p.commit.toString().padStart(20, '0')}/${p.prepare.toString().padStart(20, '0')}`;
}

export function decodePosition(s: GlobalPosition): Position {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new TypeError(`Not an EventStoreDB position: ${JSON.stringify(s)}`);
  return { commit: BigInt(m[1]), prepare: BigInt(m[2]) };
}

/** $all is ordered by commit position, then prepare position (several events share a commit). */
export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  const pa = decodePosition(a);
  const pb = decodePosition(b);
  if (pa.commit !== pb.commit) return pa.commit < pb.commit ? -1 : 1;
  if (pa.prepare !== pb.prepare) return pa.prepare < pb.prepare ? -1 : 1;
  return 0;
}

/** System events ($-types: links, metadata, stats) and system streams are not the port's business. */
export function isSystemEvent(e: { type: string; streamId: string }): boolean {
  return e.type.startsWith('$') || e.streamId.startsWith('$');
}

/** The server's "no position" (its Position.End, from -1), as the gRPC uint64 reaches the client. */
const UNKNOWN_POSITION = 2n ** 64n - 1n;

export function fromEsdb(e: EsdbRecordedEvent): RecordedEvent {
  // Stream reads carry the $all position only on servers >= 22.6 (and only for events committed by
  // themselves); otherwise the server sends Position.End (2^64-1 twice), which the client passes
  // on as a position. Taken as real, every write's read-your-writes wait would run to its cap.
  const position = e.position && e.position.commit !== UNKNOWN_POSITION ? e.position : undefined;
  if (!position) throw new Error(`EventStoreDB returned no position for ${e.streamId}@${e.revision} (server < 22.6?)`);
  const metadata = asObject(e.metadata);
  const originalId = metadata[ORIGINAL_ID_KEY];
  if (typeof originalId === 'string') delete metadata[ORIGINAL_ID_KEY];
  return {
    id: typeof originalId === 'string' ? originalId : e.id,
    streamId: e.streamId,
    revision: e.revision,
    type: e.type,
    data: asObject(e.data),
    metadata,
    recordedAt: e.created,
    position: encodePosition(position),
  };
}

/** True when a recorded event carries what the caller tried to append (idempotent replay). */
export function sameEvent(sent: EventToAppend, recorded: RecordedEvent): boolean {
  return (
    sent.id === recorded.id &&
    sent.type === recorded.type &&
    canonicalJson(sent.data) === canonicalJson(recorded.data) &&
    canonicalJson(sent.metadata ?? {}) === canonicalJson(recorded.metadata)
  );
}

/** JSON with sorted keys, so key order does not make equal payloads look different. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const obj = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
  });
}

/** A fresh, mutable object: JSON objects as they are, binary parsed if it is JSON, else wrapped. */
function asObject(value: unknown): Record<string, unknown> {
  let v = value;
  if (v instanceof Uint8Array) {
    try {
      v = JSON.parse(Buffer.from(v).toString('utf8'));
    } catch {
      return { binary: Buffer.from(value as Uint8Array).toString('base64') };
    }
  }
  if (v === undefined || v === null) return {};
  if (typeof v === 'object' && !Array.isArray(v)) return { ...(v as Record<string, unknown>) };
  return { value: v };
}
