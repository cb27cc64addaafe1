import { DomainError } from '../errors';
import type { LoteCobVCommand } from './commands';
import type { LoteCobVEvent, SolicitacaoLote } from './events';
import { canonicalJson } from '../shared';
import type { LoteCobVState } from './state';

const invalid = (detail: string, violacoes: { razao: string; propriedade?: string; valor?: string }[]) =>
  new DomainError('LoteCobVOperacaoInvalida', detail, violacoes);

const list = (txids: string[]) => txids.slice(0, 20).join(', ') + (txids.length > 20 ? ` e mais ${txids.length - 20}` : '');

/** Whether a PUT sends exactly the last PUT's description and requests, with no PATCH of the batch since. */
export function repeatsLastPut(state: LoteCobVState, descricao: string, solicitacoes: readonly SolicitacaoLote[]): boolean {
  return state.exists && state.ultimoPut !== undefined && canonicalJson(state.ultimoPut) === canonicalJson({ descricao, solicitacoes });
}

/**
 * Rounds one request may have undecided at once: the one being processed and those waiting
 * behind it. Each waiting round keeps its body in the request's row, and every round is processed
 * in turn, so a client re-sending a batch faster than it is processed grew every row and the
 * work without bound (ADR 6).
 */
export const MAX_RODADAS_ABERTAS = 16;

/** A new round reaching a request that already has MAX_RODADAS_ABERTAS undecided: come back later (503). */
function refuseFullQueue(state: Extract<LoteCobVState, { exists: true }>, txids: readonly string[]): void {
  const sent = new Set(txids);
  const full = state.txids.filter((t, i) => sent.has(t) && state.abertas[i].length >= MAX_RODADAS_ABERTAS);
  if (full.length === 0) return;
  throw new DomainError(
    'ServicoIndisponivel',
    `O lote ${state.id} ainda processa ${MAX_RODADAS_ABERTAS} rodadas de ${full.length === 1 ? 'uma solicitação' : `${full.length} solicitações`} (${list(full)}); nada foi registrado. Tente de novo quando alguma for decidida (GET /lotecobv/${state.id} mostra o status de cada uma).`,
  );
}

/**
 * PUT creates a batch, or alters all of its original requests at once; PATCH revises a subset.
 * A batch's set of txids never changes after creation.
 */
export function decideLoteCobV(command: LoteCobVCommand, state: LoteCobVState): LoteCobVEvent[] {
  if (command.type === 'RegistrarDecisoes') {
    if (!state.exists) throw new DomainError('LoteCobVNaoEncontrado', `Lote de cobranças com vencimento não encontrado para o id ${command.id}.`);
    return command.decisoes.map((data) => ({ type: 'SolicitacaoLoteDecidida', data }));
  }
  const em = command.now.toISOString();
  const txids = command.solicitacoes.map((s) => s.txid);
  if (command.type === 'CriarOuAlterarLote') {
    if (!state.exists) {
      if (command.txidsIndisponiveis.length > 0)
        throw invalid('A presente requisição tenta criar um conjunto de cobranças dentre as quais pelo menos uma cobrança já encontra-se criada.', [
          {
            razao: `Cobranças já existentes ou associadas a outro lote: ${list(command.txidsIndisponiveis)}.`,
            propriedade: 'loteCobV.cobsV',
            valor: command.txidsIndisponiveis.join(','),
          },
        ]);
      return [{ type: 'LoteCobVCriado', data: { id: command.id, descricao: command.descricao, criacao: em, solicitacoes: command.solicitacoes } }];
    }
    const original = new Set(state.txids);
    const sent = new Set(txids);
    const added = txids.filter((t) => !original.has(t));
    const missing = state.txids.filter((t) => !sent.has(t));
    if (added.length > 0 || missing.length > 0)
      throw invalid(
        'A presente requisição busca alterar um lote já existente, entretanto contém um array de solicitações de alteração de cobranças que não referencia exatamente as mesmas cobranças referenciadas pela requisição original que criou o lote.',
        [
          ...(added.length > 0 ? [{ razao: `Cobranças que não constam do lote original: ${list(added)}.`, propriedade: 'loteCobV.cobsV', valor: added.join(',') }] : []),
          ...(missing.length > 0 ? [{ razao: `Cobranças do lote original ausentes: ${list(missing)}.`, propriedade: 'loteCobV.cobsV', valor: missing.join(',') }] : []),
        ],
      );
    // The last PUT again (a retried request) that would change no charge as they are now: nothing
    // to do, and no request goes back to EM_PROCESSAMENTO. A charge changed since (PATCH /cobv,
    // a location unlinked) or a request denied then makes it a round: the PUT must take effect.
    if (repeatsLastPut(state, command.descricao, command.solicitacoes) && command.semEfeitoNasCobrancas === true) return [];
    refuseFullQueue(state, txids);
    return [
      { type: 'LoteCobVAlterado', data: { id: command.id, rodada: state.rodada + 1, via: 'ALTERACAO_PUT', descricao: command.descricao, em, solicitacoes: command.solicitacoes } },
    ];
  }
  if (!state.exists) throw new DomainError('LoteCobVNaoEncontrado', `Lote de cobranças com vencimento não encontrado para o id ${command.id}.`);
  const original = new Set(state.txids);
  const outside = txids.filter((t) => !original.has(t));
  if (outside.length > 0)
    throw invalid('A presente requisição busca alterar um lote já existente e contém uma cobrança não existente no array de cobranças atribuído pela requisição original que criou o lote.', [
      { razao: `Cobranças que não constam do lote original: ${list(outside)}.`, propriedade: 'loteCobV.cobsV', valor: outside.join(',') },
    ]);
  // No request and no new description: nothing changes, so nothing is recorded.
  if (command.solicitacoes.length === 0 && (command.descricao === undefined || command.descricao === state.descricao)) return [];
  refuseFullQueue(state, txids);
  return [
    {
      type: 'LoteCobVAlterado',
      data: { id: command.id, rodada: state.rodada + 1, via: 'REVISAO_PATCH', ...(command.descricao !== undefined ? { descricao: command.descricao } : {}), em, solicitacoes: command.solicitacoes },
    },
  ];
}
