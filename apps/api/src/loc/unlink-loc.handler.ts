import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import type { PayloadLocationWire } from '@pix/contracts';
import { payloadLocation, type Recebedor } from '@pix/domain';
import { findLoc } from '@pix/read-models';
import { READ_DB } from '../infrastructure/tokens';
import { locNotFound } from './get-loc.handler';
import { LocWriter, parseLocId } from './loc-writer';

/** DELETE /loc/{id}/txid: the location serves no charge, and its charge no longer has it. */
export class UnlinkLocCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly id: string,
  ) {}
}

@CommandHandler(UnlinkLocCommand)
export class UnlinkLocHandler implements ICommandHandler<UnlinkLocCommand, PayloadLocationWire> {
  constructor(
    private readonly writer: LocWriter,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  async execute({ recebedor, id }: UnlinkLocCommand): Promise<PayloadLocationWire> {
    const n = parseLocId(id);
    if (n === undefined) throw locNotFound();
    const own = await this.writer.read(recebedor.id, n);
    if (own.exists) {
      // The charge first, then the location: a crash in between leaves the location still
      // claimed by that charge, and a retry finishes the job; never a charge pointing at a
      // location already given to another (ADR 12).
      if (own.txid !== undefined) await this.writer.unlinkCharge(recebedor.id, own.txid, n);
      const freed = await this.writer.unlinkLocation(recebedor.id, n);
      // Then read the charges again (write, then read the other's stream): a PUT or PATCH that
      // claimed the location and appended its charge after the read above holds it now. Either
      // it is seen here, or its own re-read of the location sees it freed (claimed-location.ts).
      for (const txid of new Set([own.txid, freed])) if (txid !== undefined) await this.writer.unlinkCharge(recebedor.id, txid, n);
      return { id: own.id, location: payloadLocation(own.location), tipoCob: own.tipoCob, criacao: own.criacao };
    }
    // An implicit location (made with its charge) lives in the charge's stream only. Read as
    // clients see it: a charge its batch is still creating does not exist yet (ADR 6), so the
    // location names no txid and there is nothing to unlink (the charge kept none, an audit).
    const row = await findLoc(this.db, recebedor.id, n);
    if (!row) throw locNotFound();
    if (row.txid !== undefined) await this.writer.unlinkCharge(recebedor.id, row.txid, n);
    return { id: row.id, location: payloadLocation(row.location), tipoCob: row.tipoCob, criacao: row.criacao };
  }
}
