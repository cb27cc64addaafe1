import type { EventStore, GlobalPosition } from '@pix/event-store';

export interface ProjectionLag {
  /** Events in the store after the read model's position (at most `cap`). */
  events: number;
  /** How long the oldest event it has not applied has been waiting; 0 when caught up. */
  seconds: number;
}

/**
 * How far a read model is behind, from its position through the event-store port (so it means
 * the same on every adapter). Counting stops at `cap` events: a read model that far behind is
 * alarming whatever the exact number, and a scrape must stay cheap.
 */
export async function projectionLag(store: EventStore, position: GlobalPosition | undefined, now: Date, cap = 10_000): Promise<ProjectionLag> {
  let events = 0;
  let oldest: Date | undefined;
  for (let after = position; events < cap; ) {
    const page = await store.readAll({ after, maxCount: Math.min(1000, cap - events) });
    if (page.length === 0) break;
    oldest ??= page[0].recordedAt;
    events += page.length;
    after = page[page.length - 1].position;
  }
  return { events, seconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0 };
}

/** The lag of several read models, reading once per distinct position (they usually share one). */
export async function projectionLags(store: EventStore, checkpoints: Record<string, GlobalPosition | null>, now: Date): Promise<Record<string, ProjectionLag>> {
  const byPosition = new Map<string, Promise<ProjectionLag>>();
  const result: Record<string, ProjectionLag> = {};
  for (const [name, position] of Object.entries(checkpoints)) {
    // Written in the append's own transaction (ADR 14): never behind.
    if (position === 'inline') {
      result[name] = { events: 0, seconds: 0 };
      continue;
    }
    const key = position ?? '';
    if (!byPosition.has(key)) byPosition.set(key, projectionLag(store, position ?? undefined, now));
    result[name] = await byPosition.get(key)!;
  }
  return result;
}
