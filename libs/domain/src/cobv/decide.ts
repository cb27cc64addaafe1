import { DomainError, type Violation } from '../errors';
import { businessDateOf, canonicalJson, payerDates } from '../shared';
import type { CobVCommand, PendenciaLote } from './commands';
import type { CobVEvent } from './events';
import type { CobVState } from './state';
import type { CobVContent, CobVInput, LocationReferenciada, PayloadLocation, Recebedor } from './types';
import { removeByPsp, settle } from './settle-or-remove';
import { toCobVContent } from './validate-content';

const invalid = (detail: string, violacoes: Violation[] = []) => new DomainError('CobVOperacaoInvalida', detail, violacoes);
/**
 * Content revisions a charge may have (the contract sets none). Every read of the charge's history
 * (`?revisao=n`) and every write folds its whole stream: 1,500 revisions of 15 kB made one read
 * cost 1.1 s of the API's one thread, and ten of them held every tenant for 6 s (an audit).
 * A removal is still allowed past it.
 */
export const MAX_REVISOES_COBV = 100;

const SCHEMA_DETAIL = 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.';

/** PUT creates, or alters an ATIVA charge; PATCH revises or removes. Pure: throws DomainError. */
export function decideCobV(command: CobVCommand, state: CobVState): CobVEvent[] {
  const em = command.now.toISOString();
  const pendencia = blockingPendencia(command.pendenteEmLote, state);
  if (pendencia)
    throw invalid(`Este txid está associado ao lote ${pendencia.loteCobVId}, no qual a cobrança está com status ${pendencia.status}.`, [
      {
        razao: 'Este txid está associado a um lote e no referido lote, o status desta cobrança está atribuído como EM_PROCESSAMENTO ou NEGADA.',
        propriedade: 'txid',
        valor: command.txid,
      },
    ]);
  if (command.type === 'RegistrarPagamentoCobV') return settle(command, state, em);
  if (command.type === 'RemoverCobVPeloPsp') return removeByPsp(command, state, em);
  if (command.type === 'DesvincularLocationCobV')
    return state.exists && state.loc?.id === command.locId ? [{ type: 'CobVLocationDesvinculada', data: { txid: state.txid, em, locId: command.locId } }] : [];
  if (command.type === 'CriarOuAlterarCobV') {
    if (!state.exists) {
      const explicit = command.locationSolicitada;
      const content = contentOrThrow(command.input, { creationDate: businessDateOf(command.now), today: firstPayableDate(command.now), recebedor: command.recebedor, currentLocationId: explicit?.id, locationReferenciada: command.locationReferenciada });
      const { chaves: _keys, ...recebedor } = command.recebedor;
      const loc = explicit ?? (command.novaLocation && { ...command.novaLocation, criacao: em });
      if (!loc) throw new Error('a new charge needs a location: the shell allocates one or claims loc.id');
      return [
        {
          type: 'CobVCriada',
          data: {
            txid: command.txid,
            criacao: em,
            cobranca: content,
            loc,
            recebedor,
            ...(command.loteCobVId !== undefined ? { loteCobVId: command.loteCobVId } : {}),
          },
        },
      ];
    }
    if (state.status !== 'ATIVA')
      throw invalid(`A cobrança já existe e não está ATIVA (status ${state.status}): não pode ser alterada.`, [
        { razao: 'A cobrança já existe, não está ATIVA, e a presente requisição busca alterá-la.', propriedade: 'cobv.status', valor: state.status },
      ]);
    return revise(state, command.input, em, 'PUT', command);
  }

  if (!state.exists) throw new DomainError('CobVNaoEncontrada', `Cobrança com vencimento não encontrada para o txid ${command.txid}.`);
  if (state.status !== 'ATIVA' && !altersNothing(state, command))
    throw invalid('Cobrança não encontra-se mais com o status ATIVA, somente cobranças ativas podem ser revisadas.', [
      { razao: 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.', propriedade: 'cobv.status', valor: state.status },
    ]);
  if (state.status !== 'ATIVA') return [];
  const { status, ...changes } = command.input;
  if (status !== undefined) {
    if (status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') throw invalid(SCHEMA_DETAIL, [{ razao: 'O campo cobv.status não respeita o _schema_.', propriedade: 'cobv.status', valor: String(status) }]);
    if (Object.keys(changes).length > 0)
      throw invalid('Não se pode remover uma cobrança e alterá-la na mesma requisição.', [
        {
          razao: 'A cobrança está ATIVA, e a presente requisição propõe alterar seu status para REMOVIDA_PELO_USUARIO_RECEBEDOR juntamente com outras alterações.',
          propriedade: 'cobv.status',
        },
      ]);
    return [{ type: 'CobVRemovida', data: { txid: state.txid, revisao: state.revisao + 1, em, status } }];
  }
  return revise(state, mergePatch(state.cobranca, changes), em, 'PATCH', command);
}

function revise(state: Extract<CobVState, { exists: true }>, input: CobVInput, em: string, via: 'PUT' | 'PATCH', command: RevisionContext): CobVEvent[] {
  const loc = linkedLocation(state, input, via, command);
  const content = contentOrThrow(input, {
    creationDate: businessDateOf(new Date(state.criacao)),
    today: firstPayableDate(new Date(em)),
    recebedor: command.recebedor,
    currentLocationId: loc?.id ?? state.loc?.id,
    locationReferenciada: ownClaim(state, command.locationReferenciada),
  });
  // Same content again (a retried request): nothing changed, so no new revision. The location is
  // no content: the contract's `revisao` does not count a change of `loc` alone.
  const changed = !sameContent(content, state.cobranca);
  if (changed && state.revisao >= MAX_REVISOES_COBV)
    throw invalid(`A cobrança já tem ${state.revisao} revisões, o máximo que este PSP guarda: crie outra cobrança (outro txid) em vez de revisá-la.`, [
      { razao: `A cobrança atingiu o limite de ${MAX_REVISOES_COBV} revisões.`, valor: String(state.revisao) },
    ]);
  const events: CobVEvent[] = changed ? [{ type: 'CobVRevisada', data: { txid: state.txid, revisao: state.revisao + 1, em, cobranca: content, via } }] : [];
  if (loc) events.push({ type: 'CobVLocationVinculada', data: { txid: state.txid, em, loc } });
  return events;
}

/**
 * A PATCH of a charge no longer ATIVA whose every given field equals the charge as it is (a
 * retried removal above all) alters nothing: the contract refuses a request that "busca
 * alterá-la", and retries must stay safe (ADR 4). The fields are read as a PATCH of an ATIVA
 * charge reads them, so "equal" is what makes no new revision there.
 */
function altersNothing(state: Extract<CobVState, { exists: true }>, command: Extract<CobVCommand, { type: 'RevisarCobV' }>): boolean {
  const { status, ...changes } = command.input;
  if (status !== undefined && status !== state.status) return false;
  if (Object.keys(changes).length === 0) return true;
  const { content } = toCobVContent(mergePatch(state.cobranca, changes), {
    creationDate: businessDateOf(new Date(state.criacao)),
    today: firstPayableDate(command.now),
    recebedor: command.recebedor,
    currentLocationId: state.loc?.id,
    locationReferenciada: ownClaim(state, command.locationReferenciada),
  });
  return content !== undefined && sameContent(content, state.cobranca);
}

interface RevisionContext {
  recebedor: Recebedor;
  locationReferenciada?: LocationReferenciada;
  locationSolicitada?: PayloadLocation;
}

/**
 * The location a PATCH gives a charge that has none (unlinked by DELETE /loc/{id}/txid): the one
 * its `loc.id` names, already claimed by the shell (ADR 12). A charge that has a location keeps
 * it: the contract offers no move, and naming its own id changes nothing.
 */
function linkedLocation(state: Extract<CobVState, { exists: true }>, input: CobVInput, via: 'PUT' | 'PATCH', command: RevisionContext): PayloadLocation | undefined {
  const named = command.locationSolicitada;
  return via === 'PATCH' && !state.loc && named !== undefined && named.id === input.loc?.id ? named : undefined;
}

/**
 * A location claimed for this very charge that does not serve it (its claim won, the charge's
 * append lost a race to another write of the txid) is not "used by another charge".
 */
function ownClaim(state: Extract<CobVState, { exists: true }>, found: LocationReferenciada | undefined): LocationReferenciada | undefined {
  return found?.txid !== undefined && found.txid === state.txid ? {} : found;
}

/**
 * The first date a charge can be paid on: the earliest civil date anywhere in Brazil, which the
 * payload location serves as DPP (at 00:30 in Brasília, Acre's 22:30 the day before). The
 * creation date stays Brasília's.
 */
const firstPayableDate = (now: Date): string => payerDates(now).earliest;

function contentOrThrow(input: CobVInput, ctx: Parameters<typeof toCobVContent>[1]): CobVContent {
  const { content, violacoes } = toCobVContent(input, ctx);
  if (!content) throw invalid(SCHEMA_DETAIL, violacoes);
  return content;
}

/**
 * PATCH semantics: fields sent replace the current ones; `calendario` and `valor` merge one
 * level deep (sending `valor.original` keeps the fines); `devedor` is replaced whole, since
 * mixing a CPF with a new CNPJ would make a debtor nobody asked for.
 */
export function mergePatch(current: CobVContent, patch: CobVInput): CobVInput {
  const wire = contentToInput(current);
  return {
    ...wire,
    ...patch,
    calendario: { ...wire.calendario, ...patch.calendario },
    valor: { ...wire.valor, ...patch.valor },
    devedor: patch.devedor ?? wire.devedor,
  };
}

/** Back to wire form, so a merged PATCH is validated exactly like a PUT. */
export function contentToInput(c: CobVContent): CobVInput {
  return JSON.parse(
    JSON.stringify({
      calendario: c.calendario,
      devedor: c.devedor,
      chave: c.chave,
      solicitacaoPagador: c.solicitacaoPagador,
      infoAdicionais: c.infoAdicionais,
      valor: valorToWire(c.valor),
    }),
  );
}

/**
 * The amounts in wire form ("123.45"), absent members left out: what every response shows, so
 * built directly (a JSON round trip of the whole content was a visible share of a GET).
 */
export function valorToWire(v: CobVContent['valor']): NonNullable<CobVInput['valor']> {
  const money = (n: number) => (n / 100).toFixed(2);
  const mv = (m: { modalidade: number; valorPerc: number }) => ({ modalidade: m.modalidade, valorPerc: money(m.valorPerc) });
  const out: NonNullable<CobVInput['valor']> = { original: money(v.original) };
  if (v.multa) out.multa = mv(v.multa);
  if (v.juros) out.juros = mv(v.juros);
  if (v.abatimento) out.abatimento = mv(v.abatimento);
  const d = v.desconto;
  if (d) {
    out.desconto = { modalidade: d.modalidade };
    if (d.valorPerc !== undefined) out.desconto.valorPerc = money(d.valorPerc);
    if (d.descontoDataFixa) out.desconto.descontoDataFixa = d.descontoDataFixa.map((x) => ({ data: x.data, valorPerc: money(x.valorPerc) }));
  }
  return out;
}

function sameContent(a: CobVContent, b: CobVContent): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * The batch request that keeps PUT/PATCH off this txid. Without a charge, any of them: the txid is
 * a request being decided or denied. A charge that exists belongs to the batch that created it, or
 * to none when PUT /cobv created it ("uma vez criada via PUT /cobv/{txid}, não pode ser associada a
 * um lote"): only its own batch's request counts (an alteration round not yet decided). Another
 * batch's request for the txid, denied because the charge was created first, is not about it.
 */
function blockingPendencia(pending: readonly PendenciaLote[] | undefined, state: CobVState): PendenciaLote | undefined {
  if (!pending || pending.length === 0) return undefined;
  if (!state.exists) return pending[0];
  return state.loteCobVId === undefined ? undefined : pending.find((p) => p.loteCobVId === String(state.loteCobVId));
}
