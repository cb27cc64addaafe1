import { cobvDecider, type CobVCommand } from '@pix/domain';
import { ativaCobVTxidsNaChave } from '@pix/read-models';
import type { Pool } from 'pg';
import { cobvStream } from '../../shared/streams';
import { runOnStream, type AccessContext } from '../access-streams';

/** Where a receiver's ATIVA charges on a Pix key are found: the charge read model (PostgreSQL). */
export interface ChargesOnKey {
  /** One page of txids, in txid order, after `depoisDe`. */
  ativas(recebedorId: string, chave: string, depoisDe: string | undefined, limite: number): Promise<string[]>;
}

export const chargesInReadModel = (db: Pick<Pool, 'query'>): ChargesOnKey => ({
  ativas: (recebedorId, chave, depoisDe, limite) => ativaCobVTxidsNaChave(db, recebedorId, chave, depoisDe, limite),
});

const PAGE = 500;
/** Charges removed at once: the operator's command must not crowd out the API's writes. */
const AT_ONCE = 8;

/**
 * Removes (REMOVIDA_PELO_PSP) every ATIVA charge of the receiver on the key, each through the one
 * command handler; returns how many it removed. A charge already removed, concluded or moved to
 * another key by a PATCH meanwhile is left as it is, so running it again (after a crash) removes
 * only what is left.
 */
export async function removeChargesOnKey(ctx: AccessContext, charges: ChargesOnKey, recebedorId: string, chave: string, motivo: string): Promise<number> {
  let removed = 0;
  let depoisDe: string | undefined;
  for (;;) {
    const page = await charges.ativas(recebedorId, chave, depoisDe, PAGE);
    for (let i = 0; i < page.length; i += AT_ONCE) {
      const done = await Promise.all(
        page.slice(i, i + AT_ONCE).map((txid) => runOnStream(ctx, cobvStream(recebedorId, txid), cobvDecider, (_s, now): CobVCommand => ({ type: 'RemoverCobVPeloPsp', txid, chave, motivo, now }))),
      );
      removed += done.filter((d) => d.events.length > 0).length;
    }
    if (page.length < PAGE) return removed;
    depoisDe = page[page.length - 1];
  }
}
