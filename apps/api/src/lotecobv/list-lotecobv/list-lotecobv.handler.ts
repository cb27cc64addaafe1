import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { echoTimestamp, parseCobVListQuery, paginacao } from '@pix/contracts';
import { DomainError } from '@pix/domain';
import { listLotesCobV, toLoteCobVConsultado } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { ListLoteCobVQuery } from './list-lotecobv.query';

const PARAMETERS = ['inicio', 'fim', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];

@QueryHandler(ListLoteCobVQuery)
export class ListLoteCobVHandler implements IQueryHandler<ListLoteCobVQuery> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, query }: ListLoteCobVQuery) {
    // Same rules as GET /cobv for the parameters the two share; batches have no others.
    const { value: f, violacoes } = parseCobVListQuery(Object.fromEntries(PARAMETERS.map((p) => [p, query[p]])));
    if (!f) throw new DomainError('LoteCobVConsultaInvalida', 'Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.', violacoes);
    const { lotes, total } = await listLotesCobV(this.db, recebedor.id, f);
    return {
      parametros: {
        inicio: echoTimestamp(f.inicio),
        fim: echoTimestamp(f.fim),
        paginacao: paginacao(f.paginaAtual, f.itensPorPagina, total),
      },
      lotes: lotes.map((l) => toLoteCobVConsultado(l.lote, l.itens)),
    };
  }
}
