import type { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { countSolicitacoesByStatus, loteKeyOf, type SolicitacaoLoteRow } from '@pix/read-models';

/** When this process first decided requests of a batch, and how many were decided before that. */
interface Seen {
  at: number;
  decidedBefore: number;
}

/** What an operator sees while batches are processed: one line per batch every few seconds, and when done. */
export class BatchProgressLog {
  private readonly lastLine = new Map<string, number>();
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly db: Pick<Pool, 'query'>,
    private readonly logger: Pick<Logger, 'log'>,
    private readonly everyMs = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  async report(processed: SolicitacaoLoteRow[]): Promise<void> {
    // Batches by tenant key `{recebedorId}/{id}`: two receivers' batch 1 are two batches.
    const ids = [...new Set(processed.map(loteKeyOf))];
    const now = this.now();
    const rows = await countSolicitacoesByStatus(this.db, ids);
    for (const id of ids) {
      const counts = Object.fromEntries(rows.filter((r) => r.loteKey === id).map((r) => [r.status, r.n]));
      const pending = counts.EM_PROCESSAMENTO ?? 0;
      const decided = (counts.CRIADA ?? 0) + (counts.NEGADA ?? 0);
      let seen = this.seen.get(id);
      if (!seen) {
        // Requests decided before this process's first round of the batch: another process's, or
        // this one's before a restart. The time below counts from this process's first round, so
        // the line says so rather than claim a whole batch in no time.
        const decidedNow = processed.filter((r) => loteKeyOf(r) === id).length;
        this.seen.set(id, (seen = { at: now, decidedBefore: Math.max(0, decided - decidedNow) }));
      }
      const tail = `${((now - seen.at) / 1000).toFixed(1)} s${seen.decidedBefore > 0 ? ` here (resumed with ${seen.decidedBefore} already decided)` : ''}`;
      if (pending === 0) {
        this.logger.log(`lotecobv ${id}: done, ${counts.CRIADA ?? 0} CRIADA, ${counts.NEGADA ?? 0} NEGADA in ${tail}`);
        this.seen.delete(id);
        this.lastLine.delete(id);
      } else if (now - (this.lastLine.get(id) ?? 0) >= this.everyMs) {
        this.logger.log(`lotecobv ${id}: ${decided}/${decided + pending} decided (${counts.CRIADA ?? 0} CRIADA, ${counts.NEGADA ?? 0} NEGADA) after ${tail}`);
        this.lastLine.set(id, now);
      }
    }
  }
}
