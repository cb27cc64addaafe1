import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, type CobVCommand } from '@pix/domain';
import type { CobVRow } from '@pix/read-models';
import type { Pool } from 'pg';
import { firstThenFresh, pendenciaLote } from '../../lotecobv/pendencia-lote';
import { READ_DB } from '../../infrastructure/tokens';
import { confirmClaim, releasingUnusedClaim, withClaimedLocation } from '../../loc/claimed-location';
import { LocWriter } from '../../loc/loc-writer';
import { referencedLocation } from '../../loc/referenced-location';
import { CobVWriter, TXID_PATTERN } from '../cobv-writer';
import { PatchCobVCommand } from './patch-cobv.command';

/** No charge can have a txid the contract does not allow: 404. */
export const refuseTxid = (txid: string) => (TXID_PATTERN.test(txid) ? undefined : new DomainError('CobVNaoEncontrada', 'Cobrança com vencimento não encontrada para o txid informado.'));

@CommandHandler(PatchCobVCommand)
export class PatchCobVHandler implements ICommandHandler<PatchCobVCommand, CobVRow> {
  constructor(
    private readonly writer: CobVWriter,
    private readonly locs: LocWriter,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  async execute({ recebedor, txid, input }: PatchCobVCommand): Promise<CobVRow> {
    const refused = refuseTxid(txid);
    if (refused) throw refused;
    const locId = input.loc?.id;
    const pendencia = firstThenFresh(() => pendenciaLote(this.db, recebedor.id, txid));
    const run = () => this.writer.execute(recebedor.id, txid, async (current, now) => {
      const command: CobVCommand = { type: 'RevisarCobV', txid, input, now, recebedor, pendenteEmLote: await pendencia() };
      if (!current.exists) return command;
      // A charge without a location (unlinked) may take one made by POST /loc, as a new charge
      // does (ADR 12); one that has a location may name only its own.
      if (locId !== undefined && !current.loc) return withClaimedLocation(this.locs, this.db, command, current, recebedor.id, locId);
      command.locationReferenciada = await referencedLocation(this.db, recebedor.id, locId, current.loc?.id);
      return command;
    });
    if (locId === undefined) return (await run()).state;
    const { state } = await releasingUnusedClaim(this.locs, recebedor.id, txid, locId, run);
    return confirmClaim(this.locs, recebedor.id, state);
  }
}
