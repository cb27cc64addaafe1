import { CobVRevisadaDto, CobVSolicitadaDto, validateBody } from '@pix/contracts';
import {
  cobvDecider,
  cobvStreamId,
  decideSolicitacaoLote,
  lotecobvStreamId,
  tenantKey,
  type CobVEvent,
  type CobVInput,
  type LoteCobVEvent,
  type ProblemaSolicitacao,
  type Recebedor,
} from '@pix/domain';
import { DuplicateEventIdError, WrongExpectedRevisionError, type EventStore, type EventToAppend, type GlobalPosition } from '@pix/event-store';
import type { SolicitacaoLoteRow } from '@pix/read-models';
import { deterministicId } from '../../shared/deterministic-id';
import type { Clock, LocationIds } from '../../shared/ports';

export interface ProcessorDeps {
  store: EventStore;
  clock: Clock;
  locations: LocationIds;
}

/**
 * Decides one request of a batch exactly once, whatever crashes in between: the charge event and
 * the decision event have ids derived from (receiver, batch, round, txid), so doing it again after
 * a crash appends nothing new, and a charge event already there is recognised as this request's.
 * `recebedor` is the batch's receiver as the directory knows it now (undefined: no longer
 * registered). Returns the decision event, for `recordDecisions`.
 */
export async function decideSolicitacao(deps: ProcessorDeps, recebedor: Recebedor | undefined, item: SolicitacaoLoteRow): Promise<EventToAppend> {
  const key = `lotecobv:${tenantKey(item.recebedorId, item.loteCobVId)}:${item.rodada}:${item.txid}`;
  const chargeEventId = deterministicId(`${key}:cobv`);
  const stream = cobvStreamId(item.recebedorId, item.txid);
  let outcome: { status: 'CRIADA' | 'NEGADA'; criacao?: string; problema?: ProblemaSolicitacao } | undefined;
  for (let attempt = 1; !outcome; attempt++) {
    const recorded = await deps.store.readStream(stream);
    const charge = recorded.reduce((s, e) => cobvDecider.evolve(s, { type: e.type, data: e.data } as CobVEvent), cobvDecider.initialState);
    if (recorded.some((e) => e.id === chargeEventId)) {
      outcome = { status: 'CRIADA', criacao: charge.exists ? charge.criacao : undefined };
      break;
    }
    const shape = item.via === 'REVISAO_PATCH' ? validateBody(CobVRevisadaDto, item.corpo) : validateBody(CobVSolicitadaDto, item.corpo);
    const decision = decideSolicitacaoLote(
      {
        loteCobVId: item.loteCobVId,
        txid: item.txid,
        via: item.via,
        entrada: shape.value ? { input: shape.value as CobVInput } : { violacoes: shape.violacoes },
        now: deps.clock.now(),
        recebedor,
        novaLocation: charge.exists ? undefined : await deps.locations.next(),
      },
      charge,
    );
    if (decision.eventos.length > 0) {
      const [event] = decision.eventos;
      try {
        const expected = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].revision;
        await deps.store.appendToStream(stream, [{ id: chargeEventId, type: event.type, data: event.data as unknown as Record<string, unknown> }], expected);
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError && attempt < 50) continue; // someone wrote to the charge: decide again
        throw error;
      }
    }
    const after = decision.eventos.reduce(cobvDecider.evolve, charge);
    outcome = { status: decision.status, ...(after.exists && decision.status === 'CRIADA' ? { criacao: after.criacao } : {}), ...(decision.problema ? { problema: decision.problema } : {}) };
  }
  const decided: LoteCobVEvent = {
    type: 'SolicitacaoLoteDecidida',
    data: { id: item.loteCobVId, rodada: item.rodada, txid: item.txid, em: deps.clock.now().toISOString(), ...outcome },
  };
  return { id: deterministicId(`${key}:decisao`), type: decided.type, data: decided.data };
}

/**
 * Records the decisions of one batch in one append. Each decision keeps its own fixed id: if a
 * crash left some of them recorded already, they are appended one by one, and those already
 * there are no-ops.
 */
export async function recordDecisions(store: EventStore, lote: { recebedorId: string; loteCobVId: string }, decisions: EventToAppend[]): Promise<GlobalPosition> {
  const stream = lotecobvStreamId(lote.recebedorId, lote.loteCobVId);
  try {
    return (await store.appendToStream(stream, decisions, 'any')).position;
  } catch (error) {
    if (!(error instanceof DuplicateEventIdError) && !(error instanceof WrongExpectedRevisionError)) throw error;
    let last: GlobalPosition | undefined;
    for (const d of decisions) last = (await store.appendToStream(stream, [d], 'any')).position;
    return last!;
  }
}
