import { Body, Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CobVRevisadaDto } from '@pix/contracts';
import type { CobVPatchInput, Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { CheckedParam, ValidBody } from '../../shared/valid-body';
import { PatchCobVCommand } from './patch-cobv.command';
import { refuseTxid } from './patch-cobv.handler';

const validRevisao = new ValidBody<CobVPatchInput>(CobVRevisadaDto, 'CobVOperacaoInvalida', 'A requisição que busca alterar uma cobrança com vencimento não respeita o _schema_.');

@Controller('cobv')
export class PatchCobVController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':txid')
  @HttpCode(200)
  @Scopes('cobv.write')
  async patch(@CurrentRecebedor() recebedor: Recebedor, @Param('txid', new CheckedParam(refuseTxid)) txid: string, @Body(validRevisao) input: CobVPatchInput) {
    const row = await this.commands.execute<PatchCobVCommand, CobVRow>(new PatchCobVCommand(recebedor, txid, input));
    return toCobVCompleta(row);
  }
}
