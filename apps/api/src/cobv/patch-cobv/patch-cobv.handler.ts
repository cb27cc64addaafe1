import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CobVRevisadaDto, validateBody } from '@pix/contracts';
import { DomainError, type CobVPatchInput } from '@pix/domain';
import type { CobVRow } from '@pix/read-models';
import type { Pool } from 'pg';
import { pendenciaLote } from '../../lotecobv/pendencia-lote';
import { READ_DB } from '../../infrastructure/tokens';
import { CobVWriter, TXID_PATTERN } from '../cobv-writer';
import { PatchCobVCommand } from './patch-cobv.command';

@CommandHandler(PatchCobVCommand)
export class PatchCobVHandler implements ICommandHandler<PatchCobVCommand, CobVRow> {
  constructor(
    private readonly writer: CobVWriter,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  async execute({ recebedor, txid, body }: PatchCobVCommand): Promise<CobVRow> {
    if (!TXID_PATTERN.test(txid)) throw new DomainError('CobVNaoEncontrada', `Cobrança com vencimento não encontrada para o txid informado.`);
    const { value, violacoes } = validateBody(CobVRevisadaDto, body);
    if (!value)
      throw new DomainError('CobVOperacaoInvalida', 'A requisição que busca alterar uma cobrança com vencimento não respeita o _schema_.', violacoes);
    const { state } = await this.writer.execute(recebedor.id, txid, async (_current, now) => ({
      type: 'RevisarCobV',
      txid,
      input: value as CobVPatchInput,
      now,
      recebedor,
      pendenteEmLote: await pendenciaLote(this.db, recebedor.id, txid),
    }));
    return state;
  }
}
