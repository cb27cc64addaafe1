import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { ListCobVQuery } from './list-cobv.query';

@Controller('cobv')
export class ListCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Scopes('cobv.read')
  list(@CurrentRecebedor() recebedor: Recebedor, @Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListCobVQuery(recebedor, query));
  }
}
