import { Inject } from '@nestjs/common';
import { TXID_EXPECTED } from '@pix/contracts';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, type CobVCommand } from '@pix/domain';
import { semPendenciaDeLote, type CobVRow } from '@pix/read-models';
import type { Pool } from 'pg';
import { firstThenFresh, pendenciaLote } from '../../lotecobv/pendencia-lote';
import { LOCATION_IDS, READ_DB } from '../../infrastructure/tokens';
import { confirmClaim, releasingUnusedClaim, withClaimedLocation } from '../../loc/claimed-location';
import { LocWriter } from '../../loc/loc-writer';
import { referencedLocation } from '../../loc/referenced-location';
import type { LocationIds } from '../../shared/ports';
import { CobVWriter, TXID_PATTERN } from '../cobv-writer';
import { PutCobVCommand } from './put-cobv.command';

export const SCHEMA_DETAIL = 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.';

/** A txid the contract does not allow: refused as the body's problem, on `txid`. */
export const refuseTxid = (txid: string) =>
  TXID_PATTERN.test(txid)
    ? undefined
    : new DomainError('CobVOperacaoInvalida', SCHEMA_DETAIL, [{ razao: `O campo txid não respeita o _schema_: esperado ${TXID_EXPECTED}.`, propriedade: 'txid', valor: txid.slice(0, 100) }]);

@CommandHandler(PutCobVCommand)
export class PutCobVHandler implements ICommandHandler<PutCobVCommand, CobVRow> {
  constructor(
    private readonly writer: CobVWriter,
    private readonly locs: LocWriter,
    @Inject(LOCATION_IDS) private readonly locations: LocationIds,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  async execute({ recebedor, txid, input }: PutCobVCommand): Promise<CobVRow> {
    const refused = refuseTxid(txid);
    if (refused) throw refused;
    const locId = input.loc?.id;
    // Most PUTs create: decide as new and let the append check both guesses (no stream yet, no
    // batch holding the txid), one statement in all. Claiming a named location is an effect of
    // its own, so that path reads first.
    const assumeNew = locId === undefined ? { conditions: [semPendenciaDeLote(recebedor.id, txid)] } : undefined;
    const pendencia = assumeNew ? () => pendenciaLote(this.db, recebedor.id, txid) : firstThenFresh(() => pendenciaLote(this.db, recebedor.id, txid));
    const run = () => this.writer.execute(
      recebedor.id,
      txid,
      async (current, now, { assumedNew }) => {
        const command: CobVCommand = { type: 'CriarOuAlterarCobV', txid, input, now, recebedor, pendenteEmLote: assumedNew ? undefined : await pendencia() };
        if (current.exists) {
          command.locationReferenciada = await referencedLocation(this.db, recebedor.id, locId, current.loc?.id);
          return command;
        }
        // A location id is spent only when the charge is new and names none (set on the command
        // just built, not copied into another: this is every new charge's path).
        if (locId === undefined) {
          command.novaLocation = await this.locations.next();
          return command;
        }
        return withClaimedLocation(this.locs, this.db, command, current, recebedor.id, locId);
      },
      { assumeNew },
    );
    if (locId === undefined) return (await run()).state;
    const { state } = await releasingUnusedClaim(this.locs, recebedor.id, txid, locId, run);
    return confirmClaim(this.locs, recebedor.id, state);
  }
}
