import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { CONTRACT_PATTERNS, echoTimestamp, parseCobVListQuery, paginacao } from '@pix/contracts';
import { DomainError, toOfficialPix } from '@pix/domain';
import { listPix } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { ListPixQuery } from './list-pix.query';

/**
 * The contract's `txid` filter is 1 to 35 letters and digits, as `Pix.txid` is: a Pix paid through
 * a static QR code carries a txid of 1 to 25 (ADR 4; until 2026-11-27, an audit, only 26 to 35 were
 * taken, so such a Pix, notified and listed, could not be found by its txid).
 */
const TXID = CONTRACT_PATTERNS.pixTxid;
const bool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : undefined);

@QueryHandler(ListPixQuery)
export class ListPixHandler implements IQueryHandler<ListPixQuery> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, query }: ListPixQuery) {
    const shared = ['inicio', 'fim', 'cpf', 'cnpj', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];
    const { value: f, violacoes } = parseCobVListQuery(Object.fromEntries(shared.map((p) => [p, query[p]])));
    const extra = [];
    for (const name of ['txIdPresente', 'devolucaoPresente'])
      if (query[name] !== undefined && bool(query[name]) === undefined) extra.push({ razao: `O parâmetro ${name} não respeita o _schema_.`, propriedade: name });
    if (query.txid !== undefined && (typeof query.txid !== 'string' || !TXID.test(query.txid))) extra.push({ razao: 'O parâmetro txid não respeita o _schema_.', propriedade: 'txid' });
    if (!f || extra.length > 0) throw new DomainError('PixConsultaInvalida', 'Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.', [...violacoes, ...extra]);
    const filter = { ...f, txid: query.txid as string | undefined, txIdPresente: bool(query.txIdPresente), devolucaoPresente: bool(query.devolucaoPresente) };
    const { rows, total } = await listPix(this.db, recebedor.id, filter);
    return {
      parametros: {
        inicio: echoTimestamp(f.inicio),
        fim: echoTimestamp(f.fim),
        ...(filter.txid ? { txid: filter.txid } : {}),
        ...(filter.txIdPresente !== undefined ? { txIdPresente: filter.txIdPresente } : {}),
        ...(filter.devolucaoPresente !== undefined ? { devolucaoPresente: filter.devolucaoPresente } : {}),
        ...(f.cpf ? { cpf: f.cpf } : {}),
        ...(f.cnpj ? { cnpj: f.cnpj } : {}),
        paginacao: paginacao(f.paginaAtual, f.itensPorPagina, total),
      },
      pix: rows.map(toOfficialPix),
    };
  }
}
