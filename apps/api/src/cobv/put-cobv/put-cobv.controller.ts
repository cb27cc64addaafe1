import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { PutCobVCommand } from './put-cobv.command';

@Controller('cobv')
export class PutCobVController {
  constructor(private readonly commands: CommandBus) {}

  /** The contract answers 201 with `CobVGerada` for creation and alteration alike. */
  @Put(':txid')
  @HttpCode(201)
  async put(@Param('txid') txid: string, @Body() body: unknown) {
    const row = await this.commands.execute<PutCobVCommand, CobVRow>(new PutCobVCommand(txid, body));
    return toCobVCompleta(row);
  }
}
