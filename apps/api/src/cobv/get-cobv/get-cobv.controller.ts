import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { GetCobVQuery } from './get-cobv.query';

@Controller('cobv')
export class GetCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':txid')
  async get(@Param('txid') txid: string, @Query('revisao') revisao?: string) {
    return toCobVCompleta(await this.queries.execute<GetCobVQuery, CobVRow>(new GetCobVQuery(txid, revisao)));
  }
}
