import { positionsIn } from '../shared/positions';
import type { LoteCobVEvent, SolicitacaoLote } from './events';

export type LoteCobVState =
  | { exists: false }
  | {
      exists: true;
      id: string;
      descricao: string;
      criacao: string;
      txids: string[];
      rodada: number;
      /**
       * Per txid (same order as `txids`), the latest round whose decision is recorded (-1: none).
       * The processor records a request's rounds in order, so `decididas[i] >= r` says round r's
       * decision is in the stream: recording again after a crash appends nothing twice, and the
       * state (hence a snapshot) answers it without the stream's history.
       */
      decididas: number[];
      /**
       * Per txid (same order as `txids`), its rounds not yet decided, oldest first: the one being
       * processed and those waiting behind it. A decision settles its round and any before it (a
       * stream written before rounds queued skipped replaced ones).
       */
      abertas: number[][];
      /** The last PUT's content while no PATCH came after it: a PUT repeating it changes nothing (compared only when a PUT comes). */
      ultimoPut?: UltimoPut;
    };

export interface UltimoPut {
  descricao?: string;
  solicitacoes: readonly SolicitacaoLote[];
}

export const initialLoteCobVState: LoteCobVState = { exists: false };

/** Only what deciding needs: the original set of txids and the current round. */
export function evolveLoteCobV(state: LoteCobVState, event: LoteCobVEvent): LoteCobVState {
  switch (event.type) {
    case 'LoteCobVCriado':
      return {
        exists: true,
        id: event.data.id,
        descricao: event.data.descricao,
        criacao: event.data.criacao,
        txids: event.data.solicitacoes.map((s) => s.txid),
        rodada: 0,
        decididas: event.data.solicitacoes.map(() => -1),
        abertas: event.data.solicitacoes.map(() => [0]),
        ultimoPut: { descricao: event.data.descricao, solicitacoes: event.data.solicitacoes },
      };
    case 'LoteCobVAlterado': {
      if (!state.exists) return state;
      const abertas = state.abertas.slice();
      const positions = positionsOf(state.txids);
      for (const { txid } of event.data.solicitacoes) {
        const i = positions.get(txid);
        if (i !== undefined && abertas[i].at(-1) !== event.data.rodada) abertas[i] = [...abertas[i], event.data.rodada];
      }
      return {
        ...state,
        abertas,
        rodada: event.data.rodada,
        descricao: event.data.descricao ?? state.descricao,
        ultimoPut: event.data.via === 'ALTERACAO_PUT' ? { descricao: event.data.descricao, solicitacoes: event.data.solicitacoes } : undefined,
      };
    }
    case 'SolicitacaoLoteDecidida': {
      if (!state.exists) return state;
      const i = positionsOf(state.txids).get(event.data.txid) ?? -1;
      if (i < 0 || state.decididas[i] >= event.data.rodada) return state;
      const decididas = state.decididas.slice();
      decididas[i] = event.data.rodada;
      const abertas = state.abertas.slice();
      abertas[i] = abertas[i].filter((r) => r > event.data.rodada);
      return { ...state, decididas, abertas };
    }
  }
}

/** Each txid's position in the batch: the list is shared by every state of a batch (`positionsIn`). */
const positionsOf = (txids: readonly string[]) => positionsIn(txids, (t) => t);

/** Whether the decision of `rodada` for `txid` is already recorded in the batch's stream. */
export const decisaoRegistrada = (state: LoteCobVState, rodada: number, txid: string): boolean => {
  if (!state.exists) return false;
  const i = positionsOf(state.txids).get(txid) ?? -1;
  return i >= 0 && state.decididas[i] >= rodada;
};

/**
 * Snapshots of a batch's state (ADR 6): a batch's stream grows by a round of requests and their
 * decisions at every PUT, and a command must not fold all of it. Bump the version when the
 * state's shape changes; `restore` refuses what is not this version's shape (the stream is then
 * folded from its start).
 */
export const LOTECOBV_SNAPSHOT = {
  version: 'lotecobv-state-2',
  /**
   * A round of 1,000 requests adds ~1,000 events (its requests, then a decision each): a command
   * reads the snapshot and at most this many more, however many rounds the batch has had.
   */
  every: 500,
  restore: (json: unknown): LoteCobVState | undefined => (isBatchState(json) ? json : undefined),
};

function isBatchState(json: unknown): json is LoteCobVState {
  if (typeof json !== 'object' || json === null) return false;
  const s: Partial<Record<keyof Extract<LoteCobVState, { exists: true }>, unknown>> = json;
  const ultimoPut = s.ultimoPut as Partial<UltimoPut> | undefined;
  return (
    s.exists === true &&
    typeof s.id === 'string' &&
    typeof s.descricao === 'string' &&
    typeof s.criacao === 'string' &&
    typeof s.rodada === 'number' &&
    Array.isArray(s.txids) &&
    Array.isArray(s.decididas) &&
    s.decididas.length === s.txids.length &&
    Array.isArray(s.abertas) &&
    s.abertas.length === s.txids.length &&
    s.abertas.every((a) => Array.isArray(a)) &&
    (ultimoPut === undefined || Array.isArray(ultimoPut.solicitacoes))
  );
}
