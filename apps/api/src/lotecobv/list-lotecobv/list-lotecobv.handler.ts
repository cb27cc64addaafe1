import { Readable } from 'node:stream';
import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { echoTimestamp, parseCobVListQuery, paginacao } from '@pix/contracts';
import { DomainError } from '@pix/domain';
import { findLotesCobV, gruposDeLeitura, listLotesCobV, toLoteCobVConsultado } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { ListLoteCobVQuery } from './list-lotecobv.query';

const PARAMETERS = ['inicio', 'fim', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];

/** What one statement of the page reads at most: one batch of the default largest size (LOTECOBV_MAX_REQUESTS, MAX_BODY_BYTES). */
const POR_LEITURA = { solicitacoes: 1000, descricaoBytes: 4 * 1_048_576 };

/**
 * The page as JSON text, a group of batches at a time. A page may hold 1,000 batches of 1,000
 * requests (a problem each when denied) or of 4 MB descriptions: built whole it passed V8's
 * longest string (a 500 after 10 s of the API's one thread, ~2.7 GB resident; an audit,
 * 2026-11-27). Read as sent, it holds at most one large batch, or many small ones, in memory,
 * and other requests run between groups.
 */
@QueryHandler(ListLoteCobVQuery)
export class ListLoteCobVHandler implements IQueryHandler<ListLoteCobVQuery, Readable> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, query }: ListLoteCobVQuery): Promise<Readable> {
    // Same rules as GET /cobv for the parameters the two share; batches have no others.
    const { value: f, violacoes } = parseCobVListQuery(Object.fromEntries(PARAMETERS.map((p) => [p, query[p]])));
    if (!f) throw new DomainError('LoteCobVConsultaInvalida', 'Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.', violacoes);
    // Problems found here are still answered as problems; only the batches follow the status line.
    const { lotes, total } = await listLotesCobV(this.db, recebedor.id, f);
    const parametros = { inicio: echoTimestamp(f.inicio), fim: echoTimestamp(f.fim), paginacao: paginacao(f.paginaAtual, f.itensPorPagina, total) };
    const db = this.db;
    async function* text(): AsyncGenerator<Buffer> {
      yield Buffer.from(`{"parametros":${JSON.stringify(parametros)},"lotes":[`);
      let first = true;
      for (const ids of gruposDeLeitura(lotes, POR_LEITURA)) {
        // A batch is never deleted: every one of the page is there.
        for (const found of await findLotesCobV(db, recebedor.id, ids)) {
          yield Buffer.from(`${first ? '' : ','}${JSON.stringify(toLoteCobVConsultado(found.lote, found.itens))}`);
          first = false;
        }
      }
      yield Buffer.from(']}');
    }
    return Readable.from(text(), { objectMode: false });
  }
}
