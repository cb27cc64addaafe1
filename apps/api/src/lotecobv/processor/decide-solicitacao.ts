import { CobVRevisadaDto, CobVSolicitadaDto, validateBody } from '@pix/contracts';
import {
  cobvDecider,
  decideSolicitacaoLote,
  lotecobvStreamId,
  tenantKey,
  type CobVEvent,
  type CobVInput,
  type CobVState,
  type Decider,
  type LoteCobVEvent,
  type ProblemaSolicitacao,
  type Recebedor,
  type SolicitacaoEmProcessamento,
} from '@pix/domain';
import { DuplicateEventIdError, handleCommand, toEventData, WrongExpectedRevisionError, type EventStore, type EventToAppend, type GlobalPosition } from '@pix/event-store';
import type { SolicitacaoLoteRow } from '@pix/read-models';
import { deterministicId } from '../../shared/deterministic-id';
import type { Clock, LocationIds } from '../../shared/ports';
import { cobvStream } from '../../shared/streams';

type Outcome = { status: 'CRIADA' | 'NEGADA'; criacao?: string; problema?: ProblemaSolicitacao };
type RequestCommand = { done: true } | { done: false; solicitacao: SolicitacaoEmProcessamento };

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
  let outcome: Outcome = { status: 'CRIADA' };
  // The charge's own decider with the request's decision as its `decide`, run by the one command
  // handler (read, fold, append with this request's fixed id, decide again on a concurrent write).
  const decider: Decider<RequestCommand, CobVEvent, CobVState> = {
    initialState: cobvDecider.initialState,
    evolve: cobvDecider.evolve,
    decide(command, charge) {
      if (command.done) {
        outcome = { status: 'CRIADA', criacao: charge.exists ? charge.criacao : undefined };
        return [];
      }
      const decision = decideSolicitacaoLote(command.solicitacao, charge);
      const after = decision.eventos.reduce(cobvDecider.evolve, charge);
      outcome = { status: decision.status, ...(after.exists && decision.status === 'CRIADA' ? { criacao: after.criacao } : {}), ...(decision.problema ? { problema: decision.problema } : {}) };
      return decision.eventos;
    },
  };
  await handleCommand(
    deps.store,
    cobvStream(item.recebedorId, item.txid),
    decider,
    async (charge, recorded): Promise<RequestCommand> => {
      // Already decided before a crash: the charge event carries this request's id.
      if (recorded.some((e) => e.id === chargeEventId)) return { done: true };
      const shape = item.via === 'REVISAO_PATCH' ? validateBody(CobVRevisadaDto, item.corpo) : validateBody(CobVSolicitadaDto, item.corpo);
      return {
        done: false,
        solicitacao: {
          loteCobVId: item.loteCobVId,
          txid: item.txid,
          via: item.via,
          entrada: shape.value ? { input: shape.value as CobVInput } : { violacoes: shape.violacoes },
          now: deps.clock.now(),
          recebedor,
          novaLocation: charge.exists ? undefined : await deps.locations.next(),
        },
      };
    },
    { eventId: (_revision, index) => (index === 0 ? chargeEventId : deterministicId(`${key}:cobv:${index}`)), maxAttempts: 50 },
  );
  const decided: LoteCobVEvent = {
    type: 'SolicitacaoLoteDecidida',
    data: { id: item.loteCobVId, rodada: item.rodada, txid: item.txid, em: deps.clock.now().toISOString(), ...outcome },
  };
  return { id: deterministicId(`${key}:decisao`), type: decided.type, data: toEventData(decided.data) };
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
