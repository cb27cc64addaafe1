import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { echoTimestamp, paginacao, parseLocListQuery, type PayloadLocationConsultadas } from '@pix/contracts';
import { DomainError, type Recebedor } from '@pix/domain';
import { listLoc, toPayloadLocationCompleta } from '@pix/read-models';
import { READ_DB } from '../infrastructure/tokens';

/** GET /loc: the calling receiver's locations created in a period, filtered and paginated. */
export class ListLocQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly query: Record<string, string | string[] | undefined>,
  ) {}
}

@QueryHandler(ListLocQuery)
export class ListLocHandler implements IQueryHandler<ListLocQuery, PayloadLocationConsultadas> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, query }: ListLocQuery): Promise<PayloadLocationConsultadas> {
    const { value: f, violacoes } = parseLocListQuery(query);
    if (!f) throw new DomainError('PayloadLocationConsultaInvalida', 'Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.', violacoes);
    const { rows, total } = await listLoc(this.db, recebedor.id, f);
    const parametros = {
      inicio: echoTimestamp(f.inicio),
      fim: echoTimestamp(f.fim),
      ...(f.txIdPresente !== undefined ? { txIdPresente: f.txIdPresente } : {}),
      ...(f.tipoCob !== undefined ? { tipoCob: f.tipoCob } : {}),
      paginacao: paginacao(f.paginaAtual, f.itensPorPagina, total),
    };
    return { parametros, loc: rows.map(toPayloadLocationCompleta) };
  }
}
