import { Body, Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { PatchCobVCommand } from './patch-cobv.command';

@Controller('cobv')
export class PatchCobVController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':txid')
  @HttpCode(200)
  @Scopes('cobv.write')
  async patch(@CurrentRecebedor() recebedor: Recebedor, @Param('txid') txid: string, @Body() body: unknown) {
    const row = await this.commands.execute<PatchCobVCommand, CobVRow>(new PatchCobVCommand(recebedor, txid, body));
    return toCobVCompleta(row);
  }
}
