import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { echoTimestamp, parseCobVListQuery, type CobsVConsultadas, paginacao } from '@pix/contracts';
import { DomainError } from '@pix/domain';
import { listCobV, toCobVCompleta } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { ListCobVQuery } from './list-cobv.query';

@QueryHandler(ListCobVQuery)
export class ListCobVHandler implements IQueryHandler<ListCobVQuery, CobsVConsultadas> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, query }: ListCobVQuery): Promise<CobsVConsultadas> {
    const { value: f, violacoes } = parseCobVListQuery(query);
    if (!f) throw new DomainError('CobVConsultaInvalida', 'Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.', violacoes);
    const { rows, total } = await listCobV(this.db, recebedor.id, f);
    const parametros = {
      inicio: echoTimestamp(f.inicio),
      fim: echoTimestamp(f.fim),
      ...(f.cpf ? { cpf: f.cpf } : {}),
      ...(f.cnpj ? { cnpj: f.cnpj } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.locationPresente !== undefined ? { locationPresente: f.locationPresente } : {}),
      ...(f.loteCobVId !== undefined ? { loteCobVId: f.loteCobVId } : {}),
      paginacao: paginacao(f.paginaAtual, f.itensPorPagina, total),
    };
    // `idCob` is required by the official list schema and defined nowhere else: the txid is the charge's id.
    return { parametros, cobs: rows.map((r) => ({ ...toCobVCompleta(r), idCob: r.txid })) } as CobsVConsultadas;
  }
}
