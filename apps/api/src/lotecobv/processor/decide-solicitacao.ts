import { CobVRevisadaDto, CobVSolicitadaDto, validateBody } from '@pix/contracts';
import {
  cobvDecider,
  decideSolicitacaoLote,
  decisaoRegistrada,
  lotecobvDecider,
  tenantKey,
  type CobVEvent,
  type CobVInput,
  type CobVState,
  type DecisaoSolicitacaoLote,
  type Decider,
  type LoteCobVCommand,
  type LoteCobVState,
  type ProblemaSolicitacao,
  type Recebedor,
  type SolicitacaoEmProcessamento,
} from '@pix/domain';
import { handleCommand, type EventStore, type GlobalPosition, type Snapshotting } from '@pix/event-store';
import type { SolicitacaoLoteRow } from '@pix/read-models';
import { deterministicId } from '../../shared/deterministic-id';
import type { Clock } from '../../shared/ports';
import { cobvStream, lotecobvStream } from '../../shared/streams';
import { withLocation, type ItemLocations } from './item-location';

type Outcome = { status: 'CRIADA' | 'NEGADA'; criacao?: string; problema?: ProblemaSolicitacao };
type RequestCommand = { done: true } | { done: false; solicitacao: SolicitacaoEmProcessamento };

export interface ProcessorDeps {
  store: EventStore;
  /** The batch streams' snapshots (the writer's). */
  batchSnapshots: Snapshotting<LoteCobVState>;
  clock: Clock;
  locations: ItemLocations;
}

/**
 * Decides one request of a batch exactly once, whatever crashes in between: the charge event and
 * the decision event have ids derived from (receiver, batch, round, txid), so doing it again after
 * a crash appends nothing new, and a charge event already there is recognised as this request's.
 * `recebedor` is the batch's receiver as the directory knows it now (undefined: no longer
 * registered). Returns the decision with its fixed event id, for `recordDecisions`.
 */
export async function decideSolicitacao(deps: ProcessorDeps, recebedor: Recebedor | undefined, item: SolicitacaoLoteRow): Promise<Decisao> {
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
  const { state } = await handleCommand(
    deps.store,
    cobvStream(item.recebedorId, item.txid),
    decider,
    async (charge, recorded): Promise<RequestCommand> => {
      // Already decided before a crash: the charge event carries this request's id.
      if (recorded.some((e) => e.id === chargeEventId)) return { done: true };
      // A PATCH of the batch's `cobsv` carries "solicitações de criação ou alteração" (the
      // contract): for a request whose charge was never created (denied), a complete body is a
      // creation, as a PUT of the batch would make it; a partial one has nothing to revise.
      const creation = item.via === 'REVISAO_PATCH' && !charge.exists ? validateBody(CobVSolicitadaDto, item.corpo) : undefined;
      const via = creation?.value ? 'CRIACAO' : item.via;
      const shape = creation?.value ? creation : via === 'REVISAO_PATCH' ? validateBody(CobVRevisadaDto, item.corpo) : validateBody(CobVSolicitadaDto, item.corpo);
      const solicitacao: SolicitacaoEmProcessamento = {
        loteCobVId: item.loteCobVId,
        txid: item.txid,
        via,
        entrada: shape.value ? { input: shape.value as CobVInput } : { violacoes: shape.violacoes },
        now: deps.clock.now(),
        recebedor,
      };
      return { done: false, solicitacao: await withLocation(solicitacao, charge, item.recebedorId, deps.locations) };
    },
    { eventId: (_revision, index) => (index === 0 ? chargeEventId : deterministicId(`${key}:cobv:${index}`)), maxAttempts: 50 },
  );
  // A request that named a location re-reads it after the charge's append, as PUT does (ADR 12);
  // done again after a crash too, so a re-run heals what a crash left.
  const locId = (item.corpo.loc as { id?: unknown } | undefined)?.id;
  if (typeof locId === 'number') await deps.locations.confirm(item.recebedorId, item.txid, locId, state);
  const decisao: DecisaoSolicitacaoLote = { id: item.loteCobVId, rodada: item.rodada, txid: item.txid, em: deps.clock.now().toISOString(), ...outcome };
  return { eventId: deterministicId(`${key}:decisao`), decisao };
}

/** A request's decision and the fixed id its event is recorded under. */
export interface Decisao {
  eventId: string;
  decisao: DecisaoSolicitacaoLote;
}

/**
 * Records the decisions of one batch in one append, through the one command handler on the
 * batch's own stream. Each decision keeps its fixed event id, and those a crash left recorded
 * already (the batch's state says so) are left out, so recording again appends only what is
 * missing. Returns where the decisions are: the append's position, or the stream's last when
 * all of them were there already (undefined only if there were none).
 */
export async function recordDecisions(
  deps: Pick<ProcessorDeps, 'store' | 'batchSnapshots'>,
  lote: { recebedorId: string; loteCobVId: string },
  decisions: Decisao[],
): Promise<GlobalPosition | undefined> {
  let pending: Decisao[] = [];
  const { lastPosition } = await handleCommand(
    deps.store,
    lotecobvStream(lote.recebedorId, lote.loteCobVId),
    lotecobvDecider,
    (state): LoteCobVCommand => {
      pending = decisions.filter((d) => !decisaoRegistrada(state, d.decisao.rodada, d.decisao.txid));
      return { type: 'RegistrarDecisoes', id: lote.loteCobVId, decisoes: pending.map((d) => d.decisao) };
    },
    { eventId: (_revision, index) => pending[index].eventId, snapshots: deps.batchSnapshots },
  );
  return decisions.length > 0 ? lastPosition : undefined;
}
