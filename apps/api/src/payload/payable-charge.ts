import type { Pool } from 'pg';
import { findCobVByLocationToken, type CobVRow } from '@pix/read-models';
import type { ReceiverDirectory } from '../shared/ports';
import { payloadNotFound } from './cobv-payload';

// A location token is ours (32 hex) or, at most, what fits a 77-character location.
const TOKEN = /^[A-Za-z0-9._~-]{1,77}$/;

/**
 * The charge a payload location serves as payable, or the location's 404: every reader of a
 * location (a payer's bank, the sandbox payer over HTTP) comes through here.
 */
export async function payableCharge(db: Pick<Pool, 'query'>, directory: ReceiverDirectory, token: string): Promise<CobVRow> {
  const row = TOKEN.test(token) ? await findCobVByLocationToken(db, token) : undefined;
  if (!row) throw payloadNotFound();
  // Removed or paid charges are not served (the contract leaves it to us): a bank that skipped
  // the status check could otherwise collect a charge twice. The detail says which.
  if (row.status !== 'ATIVA') throw payloadNotFound(`A cobrança desta location está ${row.status} e não pode ser paga.`);
  // Nor one whose key is no longer its receiver's (`key remove` sweeps them, but a PUT that
  // passed the key check may append just after the sweep): the payer's bank would find the key's
  // next holder in the DICT, and a cash-in to the key is its holder's (ADR 9).
  if ((await directory.ownerOfChave(row.cobranca.chave)) !== row.recebedor.id)
    throw payloadNotFound('A chave Pix desta cobrança não pertence mais ao recebedor: a cobrança não pode ser paga.');
  return row;
}
