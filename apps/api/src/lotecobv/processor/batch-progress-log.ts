import type { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { countSolicitacoesByStatus, loteKeyOf, type SolicitacaoLoteRow } from '@pix/read-models';

/** What an operator sees while batches are processed: one line per batch every few seconds, and when done. */
export class BatchProgressLog {
  private readonly lastLine = new Map<string, number>();
  private readonly started = new Map<string, number>();

  constructor(
    private readonly db: Pick<Pool, 'query'>,
    private readonly logger: Pick<Logger, 'log'>,
    private readonly everyMs = 2000,
  ) {}

  async report(processed: SolicitacaoLoteRow[]): Promise<void> {
    // Batches by tenant key `{recebedorId}/{id}`: two receivers' batch 1 are two batches.
    const ids = [...new Set(processed.map(loteKeyOf))];
    const now = Date.now();
    for (const id of ids) if (!this.started.has(id)) this.started.set(id, now);
    const rows = await countSolicitacoesByStatus(this.db, ids);
    for (const id of ids) {
      const counts = Object.fromEntries(rows.filter((r) => r.loteKey === id).map((r) => [r.status, r.n]));
      const pending = counts.EM_PROCESSAMENTO ?? 0;
      const decided = (counts.CRIADA ?? 0) + (counts.NEGADA ?? 0);
      const seconds = ((now - this.started.get(id)!) / 1000).toFixed(1);
      if (pending === 0) {
        this.logger.log(`lotecobv ${id}: done, ${counts.CRIADA ?? 0} CRIADA, ${counts.NEGADA ?? 0} NEGADA in ${seconds} s`);
        this.started.delete(id);
        this.lastLine.delete(id);
      } else if (now - (this.lastLine.get(id) ?? 0) >= this.everyMs) {
        this.logger.log(`lotecobv ${id}: ${decided}/${decided + pending} decided (${counts.CRIADA ?? 0} CRIADA, ${counts.NEGADA ?? 0} NEGADA) after ${seconds} s`);
        this.lastLine.set(id, now);
      }
    }
  }
}
