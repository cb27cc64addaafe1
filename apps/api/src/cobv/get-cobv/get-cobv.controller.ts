import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { GetCobVQuery } from './get-cobv.query';

@Controller('cobv')
export class GetCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':txid')
  @Scopes('cobv.read')
  async get(@CurrentRecebedor() recebedor: Recebedor, @Param('txid') txid: string, @Query('revisao') revisao?: string) {
    return toCobVCompleta(await this.queries.execute<GetCobVQuery, CobVRow>(new GetCobVQuery(recebedor, txid, revisao)));
  }
}
