import type { GlobalPosition } from '../port';

/** A PostgreSQL position is the pair (transaction id, global position), written "tx:pos". */
export interface PgPosition {
  transactionId: bigint;
  globalPosition: bigint;
}

export const PG_START: PgPosition = { transactionId: 0n, globalPosition: 0n };

export function encodePgPosition(p: PgPosition): GlobalPosition {
  return `${p.transactionId}:${p.globalPosition}`;
}

export function decodePgPosition(s: GlobalPosition): PgPosition {
  const match = /^(\d+):(\d+)$/.exec(s);
  if (!match) throw new Error(`Not a PostgreSQL event-store position: "${s}"`);
  return { transactionId: BigInt(match[1]), globalPosition: BigInt(match[2]) };
}

export function comparePgPositions(a: GlobalPosition, b: GlobalPosition): number {
  const x = decodePgPosition(a);
  const y = decodePgPosition(b);
  if (x.transactionId !== y.transactionId) return x.transactionId < y.transactionId ? -1 : 1;
  if (x.globalPosition !== y.globalPosition) return x.globalPosition < y.globalPosition ? -1 : 1;
  return 0;
}
