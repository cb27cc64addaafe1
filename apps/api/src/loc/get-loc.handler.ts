import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { DomainError, type Recebedor } from '@pix/domain';
import { findLoc, type LocRow } from '@pix/read-models';
import { READ_DB } from '../infrastructure/tokens';
import { parseLocId } from './loc-writer';

/** GET /loc/{id}: one of the calling receiver's locations (another receiver's is absent). */
export class GetLocQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly id: string,
  ) {}
}

export const locNotFound = () => new DomainError('PayloadLocationNaoEncontrado', 'Location não encontrada para o id informado.');

@QueryHandler(GetLocQuery)
export class GetLocHandler implements IQueryHandler<GetLocQuery, LocRow> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, id }: GetLocQuery): Promise<LocRow> {
    const n = parseLocId(id);
    const row = n === undefined ? undefined : await findLoc(this.db, recebedor.id, n);
    if (!row) throw locNotFound();
    return row;
  }
}
