import type { Pool } from 'pg';
import { decideCobV, type CobVCommand, type CobVState } from '@pix/domain';
import type { CobVRow } from '@pix/read-models';
import type { LocWriter } from './loc-writer';
import { referencedLocation } from './referenced-location';

/** The charge commands that may name a `POST /loc` location to take: PUT creating, PATCH linking. */
type NamingCommand = Extract<CobVCommand, { type: 'CriarOuAlterarCobV' | 'RevisarCobV' }>;

/**
 * A charge command naming `loc.id` of a location it may take, made ready to append (ADR 12): the
 * charge is decided first against the location read from its stream (a refused request claims
 * nothing), then the location is claimed for the txid at the revision read (of charges racing for
 * it one wins, the others are told on `cobv.loc.id`), and the command carries it. Another
 * receiver's location is not in this receiver's stream: it "does not exist" here. An implicit one
 * has no stream either, yet exists: the decider gets what `rm_loc` knows and says which.
 * Shared by PUT /cobv (creation) and PATCH /cobv (a charge with no location).
 */
export async function withClaimedLocation<C extends NamingCommand>(locs: LocWriter, db: Pick<Pool, 'query'>, command: C, current: CobVState, recebedorId: string, locId: number): Promise<C> {
  const loc = await locs.read(recebedorId, locId);
  if (!loc.exists) return { ...command, locationReferenciada: await referencedLocation(db, recebedorId, locId, undefined) };
  decideCobV({ ...command, locationSolicitada: { id: loc.id, location: loc.location, criacao: loc.criacao } }, current);
  return { ...command, locationSolicitada: await locs.claim(recebedorId, locId, command.txid) };
}

/**
 * After the charge's append, for a request that named `loc.id` (PUT, PATCH, or a retry of either):
 * the location's stream is read again. A `DELETE /loc/{id}/txid` that ran between the claim and
 * the append freed it (another charge may hold it since), yet the charge got it: the charge lets
 * it go (the idempotent unlink) and the answer is the charge as it then is. The DELETE writes,
 * then reads the charge; this writes, then reads the location: at least one of the two sees the
 * other's write, on either event store, without a transaction across streams (ADR 12).
 */
export async function confirmClaim(locs: LocWriter, recebedorId: string, charge: CobVRow): Promise<CobVRow> {
  const id = charge.loc?.id;
  if (id === undefined) return charge;
  const loc = await locs.read(recebedorId, id);
  // An implicit location has no stream: only its charge ever held it.
  if (!loc.exists || loc.txid === charge.txid) return charge;
  const after = await locs.unlinkCharge(recebedorId, charge.txid, id);
  return after.exists ? after : charge;
}

/**
 * Runs a request that named `loc.id`; if it fails, the location is let go when this request's
 * claim is all that holds it (`releaseUnheld`). A claim is appended in one attempt of the command
 * loop; when that attempt's charge append loses to a concurrent write (a batch creating the txid,
 * a removal on another instance) and the decision on the new state refuses, the refused request
 * must leave nothing behind (2026-11-27, an audit: the location stayed claimed for a charge that
 * did not hold it). A failure to let go is not the request's answer: the request's error is.
 */
export async function releasingUnusedClaim<T>(locs: LocWriter, recebedorId: string, txid: string, locId: number | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (locId !== undefined) await locs.releaseUnheld(recebedorId, locId, txid).catch(() => undefined);
    throw error;
  }
}
