import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@pix/domain';
import type { CobVRow } from '@pix/read-models';
import type { Pool } from 'pg';
import { firstThenFresh, pendenciaLote } from '../../lotecobv/pendencia-lote';
import { READ_DB } from '../../infrastructure/tokens';
import { referencedLocation } from '../../loc/referenced-location';
import { CobVWriter, TXID_PATTERN } from '../cobv-writer';
import { PatchCobVCommand } from './patch-cobv.command';

/** No charge can have a txid the contract does not allow: 404. */
export const refuseTxid = (txid: string) => (TXID_PATTERN.test(txid) ? undefined : new DomainError('CobVNaoEncontrada', 'Cobrança com vencimento não encontrada para o txid informado.'));

@CommandHandler(PatchCobVCommand)
export class PatchCobVHandler implements ICommandHandler<PatchCobVCommand, CobVRow> {
  constructor(
    private readonly writer: CobVWriter,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  async execute({ recebedor, txid, input }: PatchCobVCommand): Promise<CobVRow> {
    const refused = refuseTxid(txid);
    if (refused) throw refused;
    const pendencia = firstThenFresh(() => pendenciaLote(this.db, recebedor.id, txid));
    const { state } = await this.writer.execute(recebedor.id, txid, async (current, now) => ({
      type: 'RevisarCobV',
      txid,
      input,
      now,
      recebedor,
      pendenteEmLote: await pendencia(),
      locationReferenciada: current.exists ? await referencedLocation(this.db, recebedor.id, input.loc?.id, current.loc?.id) : undefined,
    }));
    return state;
  }
}
