import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { DomainError, toOfficialPix } from '@pix/domain';
import { findPix } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { GetPixQuery } from './get-pix.query';

const E2E = /^[a-zA-Z0-9]{32}$/;

@QueryHandler(GetPixQuery)
export class GetPixHandler implements IQueryHandler<GetPixQuery> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  /** Another receiver's Pix (or one nobody here owns) answers 404, as a missing one does. */
  async execute({ recebedor, e2eid }: GetPixQuery) {
    const pix = E2E.test(e2eid) ? await findPix(this.db, recebedor.id, e2eid) : undefined;
    if (!pix) throw new DomainError('PixNaoEncontrado', 'Pix não encontrado para o e2eid informado.');
    return toOfficialPix(pix);
  }
}
