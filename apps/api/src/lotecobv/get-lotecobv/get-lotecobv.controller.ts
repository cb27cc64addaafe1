import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { GetLoteCobVQuery } from './get-lotecobv.query';

@Controller('lotecobv')
export class GetLoteCobVController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @Scopes('lotecobv.read')
  get(@CurrentRecebedor() recebedor: Recebedor, @Param('id') id: string) {
    return this.queries.execute(new GetLoteCobVQuery(recebedor, id));
  }
}
