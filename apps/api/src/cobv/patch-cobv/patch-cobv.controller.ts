import { Body, Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { PatchCobVCommand } from './patch-cobv.command';

@Controller('cobv')
export class PatchCobVController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':txid')
  @HttpCode(200)
  async patch(@Param('txid') txid: string, @Body() body: unknown) {
    const row = await this.commands.execute<PatchCobVCommand, CobVRow>(new PatchCobVCommand(txid, body));
    return toCobVCompleta(row);
  }
}
