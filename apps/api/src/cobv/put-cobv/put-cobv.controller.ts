import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { PutCobVCommand } from './put-cobv.command';

@Controller('cobv')
export class PutCobVController {
  constructor(private readonly commands: CommandBus) {}

  /** The contract answers 201 with `CobVGerada` for creation and alteration alike. */
  @Put(':txid')
  @HttpCode(201)
  @Scopes('cobv.write')
  async put(@CurrentRecebedor() recebedor: Recebedor, @Param('txid') txid: string, @Body() body: unknown) {
    const row = await this.commands.execute<PutCobVCommand, CobVRow>(new PutCobVCommand(recebedor, txid, body));
    return toCobVCompleta(row);
  }
}
