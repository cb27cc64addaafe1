import type { Pool } from 'pg';
import type { LocationReferenciada } from '@pix/domain';
import { findLocAsStored } from '@pix/read-models';

/**
 * What `loc.id` names when it is not the location the request may use (`usable`: the charge's
 * own, or on creation none), for the decider's reason. An implicit location has no stream of
 * its own, so only `rm_loc` knows it exists (freed, or serving a charge) rather than "inexiste".
 * No query when `loc.id` is absent or usable.
 */
export async function referencedLocation(db: Pick<Pool, 'query'>, recebedorId: string, locId: number | undefined, usable: number | undefined): Promise<LocationReferenciada | undefined> {
  if (locId === undefined || locId === usable) return undefined;
  const row = await findLocAsStored(db, recebedorId, locId);
  if (!row) return undefined;
  return row.txid === undefined ? {} : { txid: row.txid };
}
