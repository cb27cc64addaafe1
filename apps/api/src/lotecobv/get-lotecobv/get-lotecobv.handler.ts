import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { DomainError } from '@pix/domain';
import { findLoteCobV, toLoteCobVConsultado } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { canonicalLoteId } from '../lote-id';
import { GetLoteCobVQuery } from './get-lotecobv.query';

@QueryHandler(GetLoteCobVQuery)
export class GetLoteCobVHandler implements IQueryHandler<GetLoteCobVQuery> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, id }: GetLoteCobVQuery) {
    const found = await findLoteCobV(this.db, recebedor.id, canonicalLoteId(id, 'consulta'));
    if (!found) throw new DomainError('LoteCobVNaoEncontrado', 'Lote de cobranças com vencimento não encontrado para o id informado.');
    return toLoteCobVConsultado(found.lote, found.itens);
  }
}
