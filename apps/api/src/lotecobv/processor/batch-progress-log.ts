import type { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { SolicitacaoLoteRow } from '@pix/read-models';

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
    const ids = [...new Set(processed.map((p) => p.loteCobVId))];
    const now = Date.now();
    for (const id of ids) if (!this.started.has(id)) this.started.set(id, now);
    const { rows } = await this.db.query<{ lote_id: string; status: string; n: string }>(
      `SELECT lote_id, status, count(*) AS n FROM rm_lotecobv_solicitacao WHERE lote_id = ANY($1::text[]) GROUP BY lote_id, status`,
      [ids],
    );
    for (const id of ids) {
      const counts = Object.fromEntries(rows.filter((r) => r.lote_id === id).map((r) => [r.status, Number(r.n)]));
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
