import type { SolicitacaoLoteRow } from '@pix/read-models';
import { BatchProgressLog } from './batch-progress-log';

/** The status counts countSolicitacoesByStatus reads, as PostgreSQL returns them. */
const countsDb = (counts: Record<string, number>) => ({
  query: async () => ({ rows: Object.entries(counts).map(([status, n]) => ({ lote_id: 'r1/7', status, n: String(n) })) }),
});
const processed = (n: number) => Array.from({ length: n }, (_, i) => ({ recebedorId: 'r1', loteCobVId: '7', txid: `t${i}` }) as SolicitacaoLoteRow);

describe('BatchProgressLog', () => {
  it('times a batch from its first round in this process and says when it resumed one that was partly decided (after a restart)', async () => {
    const lines: string[] = [];
    let now = 10_000;
    const counts: Record<string, number> = { CRIADA: 310, NEGADA: 0, EM_PROCESSAMENTO: 690 };
    const log = new BatchProgressLog(countsDb(counts) as never, { log: (m: string) => lines.push(m) }, 2000, () => now);
    await log.report(processed(10));
    now += 3000;
    Object.assign(counts, { CRIADA: 1000, EM_PROCESSAMENTO: 0 });
    await log.report(processed(690));
    expect(lines).toEqual([
      'lotecobv r1/7: 310/1000 decided (310 CRIADA, 0 NEGADA) after 0.0 s here (resumed with 300 already decided)',
      'lotecobv r1/7: done, 1000 CRIADA, 0 NEGADA in 3.0 s here (resumed with 300 already decided)',
    ]);
  });

  it('a batch this process decided from its first request: plain times', async () => {
    const lines: string[] = [];
    let now = 50_000;
    const counts: Record<string, number> = { CRIADA: 100, EM_PROCESSAMENTO: 900 };
    const log = new BatchProgressLog(countsDb(counts) as never, { log: (m: string) => lines.push(m) }, 2000, () => now);
    await log.report(processed(100));
    now += 1500;
    Object.assign(counts, { CRIADA: 1000, EM_PROCESSAMENTO: 0 });
    await log.report(processed(900));
    expect(lines).toEqual(['lotecobv r1/7: 100/1000 decided (100 CRIADA, 0 NEGADA) after 0.0 s', 'lotecobv r1/7: done, 1000 CRIADA, 0 NEGADA in 1.5 s']);
  });
});
