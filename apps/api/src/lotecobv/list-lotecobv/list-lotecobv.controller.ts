import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { ListLoteCobVQuery } from './list-lotecobv.query';

@Controller('lotecobv')
export class ListLoteCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Scopes('lotecobv.read')
  list(@CurrentRecebedor() recebedor: Recebedor, @Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListLoteCobVQuery(recebedor, query));
  }
}
