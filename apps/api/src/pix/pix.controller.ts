import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../auth/auth-context';
import { GetPixQuery } from './get-pix/get-pix.query';
import { ListPixQuery } from './list-pix/list-pix.query';

/** GET /pix and GET /pix/{e2eid}. */
@Controller('pix')
export class PixController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':e2eid')
  @Scopes('pix.read')
  get(@CurrentRecebedor() recebedor: Recebedor, @Param('e2eid') e2eid: string) {
    return this.queries.execute(new GetPixQuery(recebedor, e2eid));
  }

  @Get()
  @Scopes('pix.read')
  list(@CurrentRecebedor() recebedor: Recebedor, @Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListPixQuery(recebedor, query));
  }
}
