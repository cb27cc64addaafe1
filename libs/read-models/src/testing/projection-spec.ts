import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@pix/event-store';
import { keysOf, type Projection } from '../projection';

/** Wraps plain domain events as recorded ones, in order, for projection specs. */
export function recorded(events: { type: string; data: object }[], streamId = 's'): RecordedEvent[] {
  return events.map((e, i) => ({
    id: randomUUID(),
    streamId,
    revision: BigInt(i),
    type: e.type,
    data: e.data as Record<string, unknown>,
    metadata: {},
    recordedAt: new Date(0),
    position: `0:${i + 1}`,
  }));
}

/** Given/then for projections: folds events over (row, event) per key, as the runner does. */
export function projectionSpec<Row>(projection: Projection<Row>) {
  return {
    given(events: RecordedEvent[]) {
      const rows = new Map<string, Row | null>();
      for (const e of events.filter((x) => projection.canHandle.includes(x.type)))
        for (const key of keysOf(projection, e)) rows.set(key, projection.apply(rows.get(key) ?? null, e, key));
      return {
        then(key: string, check: (row: Row | null) => void) {
          check(rows.get(key) ?? null);
        },
      };
    },
  };
}
