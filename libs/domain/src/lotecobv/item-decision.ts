import { DomainError, type Violation } from '../errors';
import { decideCobV } from '../cobv/decide';
import type { CobVEvent } from '../cobv/events';
import type { CobVState } from '../cobv/state';
import type { CobVInput, CobVPatchInput, LocationReferenciada, PayloadLocation, Recebedor } from '../cobv/types';
import type { ProblemaSolicitacao, ViaLote } from './events';

export interface SolicitacaoEmProcessamento {
  loteCobVId: string;
  txid: string;
  via: ViaLote;
  /** The request after shape validation, or the shape violations that deny it. */
  entrada: { input: CobVInput | CobVPatchInput } | { violacoes: Violation[] };
  now: Date;
  /** The batch's receiver as it is now; undefined when it is no longer registered. */
  recebedor: Recebedor | undefined;
  novaLocation?: { id: number; location: string };
  /** The location `loc.id` names, claimed for this charge (a new charge naming one, as PUT /cobv). */
  locationSolicitada?: PayloadLocation;
  /** What a `loc.id` this request cannot use names: the reason it is denied. */
  locationReferenciada?: LocationReferenciada;
}

export type DecisaoSolicitacao =
  | { status: 'CRIADA'; eventos: CobVEvent[]; problema?: ProblemaSolicitacao }
  | { status: 'NEGADA'; eventos: []; problema: ProblemaSolicitacao };

const SCHEMA_DETAIL = 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.';

/**
 * Decides one request of a batch against its charge, with the same rules as PUT/PATCH
 * /cobv/{txid}. A creation that fails is NEGADA (no charge). An alteration of a created charge
 * that fails leaves it CRIADA, with the problem; a NEGADA request sent again is a creation.
 */
export function decideSolicitacaoLote(s: SolicitacaoEmProcessamento, charge: CobVState): DecisaoSolicitacao {
  const ownCharge = charge.exists && String(charge.loteCobVId) === s.loteCobVId;
  const deny = (problema: ProblemaSolicitacao): DecisaoSolicitacao => (ownCharge ? { status: 'CRIADA', eventos: [], problema } : { status: 'NEGADA', eventos: [], problema });
  if (charge.exists && !ownCharge)
    return deny({
      tipo: 'CobVOperacaoInvalida',
      detail: 'Já existe uma cobrança com este txid que não pertence a este lote.',
      violacoes: [{ razao: 'O campo txid corresponde a uma cobrança já existente.', propriedade: 'txid', valor: s.txid }],
    });
  if (!s.recebedor)
    return deny({
      tipo: 'CobVOperacaoInvalida',
      detail: 'O usuário recebedor deste lote não está mais cadastrado: a cobrança não pode ser criada nem alterada.',
      violacoes: [{ razao: 'O usuário recebedor do lote não está cadastrado.', propriedade: 'cobv.recebedor' }],
    });
  if ('violacoes' in s.entrada) return deny({ tipo: 'CobVOperacaoInvalida', detail: SCHEMA_DETAIL, violacoes: s.entrada.violacoes });
  if (s.via === 'REVISAO_PATCH' && !charge.exists)
    return deny({ tipo: 'CobVNaoEncontrada', detail: 'A cobrança deste txid não foi criada: não há o que revisar.', violacoes: [] });
  const recebedor = s.recebedor;
  try {
    const eventos =
      s.via === 'REVISAO_PATCH'
        ? decideCobV({ type: 'RevisarCobV', txid: s.txid, input: s.entrada.input, now: s.now, recebedor, locationSolicitada: s.locationSolicitada, locationReferenciada: s.locationReferenciada }, charge)
        : decideCobV(
            {
              type: 'CriarOuAlterarCobV',
              txid: s.txid,
              input: s.entrada.input,
              now: s.now,
              recebedor,
              novaLocation: s.novaLocation,
              locationSolicitada: s.locationSolicitada,
              locationReferenciada: s.locationReferenciada,
              loteCobVId: Number(s.loteCobVId),
            },
            charge,
          );
    return { status: 'CRIADA', eventos };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return deny({ tipo: error.kind === 'CobVNaoEncontrada' ? 'CobVNaoEncontrada' : 'CobVOperacaoInvalida', detail: error.detail, violacoes: error.violacoes });
  }
}
