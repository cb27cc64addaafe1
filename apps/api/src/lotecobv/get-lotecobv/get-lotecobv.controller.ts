import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetLoteCobVQuery } from './get-lotecobv.query';

@Controller('lotecobv')
export class GetLoteCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  get(@Param('id') id: string) {
    return this.queries.execute(new GetLoteCobVQuery(id));
  }
}
