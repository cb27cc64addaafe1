import { CobVSolicitadaDto, validateBody } from '@pix/contracts';
import { cobvDecider, decideSolicitacaoLote, type CobVInput, type Recebedor, type SolicitacaoLote } from '@pix/domain';
import { aggregateStream, type EventStore } from '@pix/event-store';
import { cobvStream } from '../../shared/streams';

/** Charges read at once while checking a repeated PUT. */
const READS_AT_ONCE = 16;

/**
 * Whether a PUT that repeats the batch's last one would change none of its charges as they are
 * now: each request, decided as the processor would decide it (its own charge's stream, the same
 * validation, the same rules), is CRIADA with no event and no problem. A charge changed since the
 * last PUT (a PATCH /cobv, a location unlinked, a removal, a payment), a request denied then, or
 * one still undecided make it false, and the PUT becomes a round that applies it (an audit: the
 * repeat was dropped and the charge kept the PATCH's value though the PUT had been answered 202).
 * A request naming another location than its charge's is left to the round (claims are effects).
 */
export async function changesNoCharge(store: EventStore, recebedor: Recebedor, loteCobVId: string, solicitacoes: readonly SolicitacaoLote[], now: Date): Promise<boolean> {
  for (let i = 0; i < solicitacoes.length; i += READS_AT_ONCE) {
    const unchanged = await Promise.all(solicitacoes.slice(i, i + READS_AT_ONCE).map((s) => changesNothing(store, recebedor, loteCobVId, s, now)));
    if (unchanged.includes(false)) return false;
  }
  return true;
}

async function changesNothing(store: EventStore, recebedor: Recebedor, loteCobVId: string, s: SolicitacaoLote, now: Date): Promise<boolean> {
  const { state: charge } = await aggregateStream(store, cobvStream(recebedor.id, s.txid), cobvDecider);
  if (!charge.exists) return false;
  const { value } = validateBody(CobVSolicitadaDto, s.corpo);
  if (!value) return false;
  const input = value as CobVInput;
  if (input.loc?.id !== undefined && input.loc.id !== charge.loc?.id) return false;
  const decision = decideSolicitacaoLote({ loteCobVId, txid: s.txid, via: 'ALTERACAO_PUT', entrada: { input }, now, recebedor }, charge);
  return decision.status === 'CRIADA' && decision.eventos.length === 0 && decision.problema === undefined;
}
