import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CobVSolicitadaDto } from '@pix/contracts';
import type { CobVInput, Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { CheckedParam, ValidBody } from '../../shared/valid-body';
import { PutCobVCommand } from './put-cobv.command';
import { refuseTxid, SCHEMA_DETAIL } from './put-cobv.handler';

const validCobV = new ValidBody<CobVInput>(CobVSolicitadaDto, 'CobVOperacaoInvalida', SCHEMA_DETAIL);

@Controller('cobv')
export class PutCobVController {
  constructor(private readonly commands: CommandBus) {}

  /** The contract answers 201 with `CobVGerada` for creation and alteration alike. */
  @Put(':txid')
  @HttpCode(201)
  @Scopes('cobv.write')
  async put(@CurrentRecebedor() recebedor: Recebedor, @Param('txid', new CheckedParam(refuseTxid)) txid: string, @Body(validCobV) input: CobVInput) {
    const row = await this.commands.execute<PutCobVCommand, CobVRow>(new PutCobVCommand(recebedor, txid, input));
    return toCobVCompleta(row);
  }
}
