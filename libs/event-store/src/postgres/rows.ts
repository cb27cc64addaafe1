import type { ExpectedRevision, RecordedEvent } from '../port';
import { encodePgPosition } from './positions';

export interface EventRow {
  event_id: string;
  stream_id: string;
  stream_revision: string;
  event_type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recorded_at: Date;
  global_position: string;
  transaction_id: string;
}

/** The events are already there, consecutively, where this very append would have put them. */
export function isSameAppend(rows: Pick<EventRow, 'event_id' | 'stream_id' | 'stream_revision'>[], streamId: string, ids: string[], expected: ExpectedRevision): boolean {
  const first = BigInt(rows[0].stream_revision);
  const inPlace = rows.every((r, i) => r.stream_id === streamId && r.event_id === ids[i] && BigInt(r.stream_revision) === first + BigInt(i));
  if (!inPlace) return false;
  if (expected === 'no_stream') return first === 0n;
  if (typeof expected === 'bigint') return first === expected + 1n;
  return true;
}

export function toRecorded(r: EventRow): RecordedEvent {
  return {
    id: r.event_id,
    streamId: r.stream_id,
    revision: BigInt(r.stream_revision),
    type: r.event_type,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at,
    position: encodePgPosition({ transactionId: BigInt(r.transaction_id), globalPosition: BigInt(r.global_position) }),
  };
}
