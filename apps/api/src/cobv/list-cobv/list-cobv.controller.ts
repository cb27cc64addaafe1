import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListCobVQuery } from './list-cobv.query';

@Controller('cobv')
export class ListCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  list(@Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListCobVQuery(query));
  }
}
