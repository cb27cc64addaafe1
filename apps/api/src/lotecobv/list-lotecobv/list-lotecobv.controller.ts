import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListLoteCobVQuery } from './list-lotecobv.query';

@Controller('lotecobv')
export class ListLoteCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  list(@Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListLoteCobVQuery(query));
  }
}
