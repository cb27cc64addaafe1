import { randomBytes } from 'node:crypto';
import {
  chaveDecider,
  clienteDecider,
  DomainError,
  PIX_SCOPES,
  recebedorDecider,
  webhookDecider,
  webhookDoRecebedor,
  type DadosRecebedor,
  type PixScope,
  type Recebedor,
} from '@pix/domain';
import { deterministicId } from '../../shared/deterministic-id';
import { webhookStream } from '../../shared/streams';
import { CLIENT_INDEX_STREAM, loadChave, loadCliente, loadRecebedor, onChave, onCliente, onRecebedor, readState, RECEIVER_INDEX_STREAM, runOnStream, type AccessContext } from '../access-streams';
import { generateSecret, hashSecret } from '../secrets';
import { removeChargesOnKey, type ChargesOnKey } from './key-charges';

/**
 * The operator's use cases on receivers, keys and clients, as plain functions over the event
 * store: the admin command runs them, local start-up seeds with them, tests call them directly.
 * Each throws a typed DomainError and writes nothing when refused.
 */

/** Registers the receiver with its keys; the data and every key are checked before anything is written. */
export async function createReceiver(ctx: AccessContext, recebedorId: string, dados: DadosRecebedor, chaves: readonly string[] = []): Promise<Recebedor> {
  // Validate before indexing, so a refused receiver (or one of its keys) leaves no trace.
  recebedorDecider.decide({ type: 'CadastrarRecebedor', recebedorId, dados, now: new Date() }, recebedorDecider.initialState);
  for (const chave of chaves) chaveDecider.decide({ type: 'ReivindicarChave', chave, recebedorId, now: new Date() }, await loadChave(ctx.store, chave));
  await index(ctx, RECEIVER_INDEX_STREAM, 'RecebedorIndexado', { recebedorId });
  let { state } = await onRecebedor(ctx, recebedorId, (now) => ({ type: 'CadastrarRecebedor', recebedorId, dados, now }));
  for (const chave of chaves) ({ state } = await claimAndList(ctx, recebedorId, chave));
  return toRecebedor(state)!;
}

export async function updateReceiver(ctx: AccessContext, recebedorId: string, dados: DadosRecebedor): Promise<Recebedor> {
  const { state } = await onRecebedor(ctx, recebedorId, (now) => ({ type: 'AtualizarRecebedor', recebedorId, dados, now }));
  return toRecebedor(state)!;
}

/**
 * Claims the key (at most one receiver holds it), then lists it on the receiver. Run again after
 * a crash between the two, it finishes the job.
 */
export async function addKey(ctx: AccessContext, recebedorId: string, chave: string): Promise<Recebedor> {
  if (!(await loadRecebedor(ctx.store, recebedorId)).exists) throw new DomainError('RecebedorNaoEncontrado', `There is no receiver "${recebedorId}".`);
  return toRecebedor((await claimAndList(ctx, recebedorId, chave)).state)!;
}

async function claimAndList(ctx: AccessContext, recebedorId: string, chave: string) {
  await onChave(ctx, chave, (now) => ({ type: 'ReivindicarChave', chave, recebedorId, now }));
  return onRecebedor(ctx, recebedorId, (now) => ({ type: 'VincularChave', recebedorId, chave, now }));
}

export interface KeyRemoval extends Recebedor {
  /** The receiver's ATIVA charges on the key, removed by the PSP (REMOVIDA_PELO_PSP). */
  cobrancasRemovidas: number;
  /** The key had already left the receiver (an earlier run released it): only its charges were swept. */
  jaDesvinculada?: boolean;
  /** The key's pending notifications cancelled, where the outbox is reachable. */
  notificacoesCanceladas?: number;
}

/**
 * Unlists the key from the receiver, removes the receiver's ATIVA charges on it (nobody could
 * settle them: a payer's bank finds the key's next holder in the DICT, and a cash-in is its
 * holder's, ADR 9), its webhook and notifications, then releases the claim so another receiver
 * may take it. Every step is idempotent and the claim goes last, so running it again after a
 * crash finishes the job; run again after the release (a charge a racing PUT created after the
 * sweep), it sweeps the receiver's charges on the key again and touches nothing else.
 */
export async function removeKey(ctx: AccessContext & { charges: ChargesOnKey }, recebedorId: string, chave: string): Promise<KeyRemoval> {
  const receiver = await loadRecebedor(ctx.store, recebedorId);
  if (!receiver.exists) throw new DomainError('RecebedorNaoEncontrado', `There is no receiver "${recebedorId}".`);
  const motivo = `chave ${chave} removida do recebedor ${recebedorId}`;
  const claim = await loadChave(ctx.store, chave);
  if (claim.dono !== recebedorId) {
    // Refused, as before, when the receiver never held the key; else the key may be another
    // receiver's by now, whose webhook and notifications are not this command's.
    if (!claim.periodos.some((p) => p.recebedorId === recebedorId)) chaveDecider.decide({ type: 'LiberarChave', chave, recebedorId, now: new Date() }, claim);
    const cobrancasRemovidas = await removeChargesOnKey(ctx, ctx.charges, recebedorId, chave, motivo);
    return { ...toRecebedor(receiver)!, cobrancasRemovidas, jaDesvinculada: true };
  }
  const { state } = await onRecebedor(ctx, recebedorId, (now) => ({ type: 'DesvincularChave', recebedorId, chave, now }));
  // Unlisted first: once the API's directory cache has let go of the key, no PUT or batch can
  // create a charge on it, so the sweep that follows misses none (the payload location refuses
  // any that slips through, payload/payable-charge.ts).
  if (ctx.directoryCacheMs) await new Promise((r) => setTimeout(r, ctx.directoryCacheMs));
  const cobrancasRemovidas = await removeChargesOnKey(ctx, ctx.charges, recebedorId, chave, motivo);
  // The key's webhook leaves with it, before anyone else may claim the key: the notifier reads
  // webhook-{chave} alone, so the next owner's cash-ins must never reach this receiver's URL.
  if (webhookDoRecebedor((await readState(ctx.store, webhookStream(chave), webhookDecider)).state, recebedorId).exists)
    await runOnStream(ctx, webhookStream(chave), webhookDecider, (_s, now) => ({ type: 'RemoverWebhook', chave, now, recebedorId }));
  // Its notifications too, pending retries and later resends alike: delivery looks the webhook up
  // by key, so once the next owner registers one they would reach the next owner's URL.
  const notificacoesCanceladas = await ctx.notifications?.retireKey(chave, motivo);
  await onChave(ctx, chave, (now) => ({ type: 'LiberarChave', chave, recebedorId, now }));
  return { ...toRecebedor(state)!, cobrancasRemovidas, ...(notificacoesCanceladas === undefined ? {} : { notificacoesCanceladas }) };
}

export interface CreatedClient {
  clientId: string;
  recebedorId: string;
  scopes: PixScope[];
  /** Shown once: only its hash is stored. */
  secret: string;
}

export async function createClient(
  ctx: AccessContext,
  options: { recebedorId: string; clientId?: string; scopes?: string[]; secret?: string },
): Promise<CreatedClient> {
  const clientId = options.clientId ?? `${options.recebedorId}-${randomBytes(5).toString('hex')}`;
  const secret = options.secret ?? generateSecret();
  const secretHash = await hashSecret(secret);
  const recebedorCadastrado = (await loadRecebedor(ctx.store, options.recebedorId)).exists;
  // Validate before indexing, so a refused client leaves no trace.
  clienteDecider.decide({ type: 'CriarCliente', clientId, recebedorId: options.recebedorId, recebedorCadastrado, scopes: options.scopes ?? [...PIX_SCOPES], secretHash, now: new Date() }, clienteDecider.initialState);
  await index(ctx, CLIENT_INDEX_STREAM, 'ClienteIndexado', { clientId });
  const { state } = await onCliente(ctx, clientId, (now) => ({
    type: 'CriarCliente',
    clientId,
    recebedorId: options.recebedorId,
    recebedorCadastrado,
    scopes: options.scopes ?? [...PIX_SCOPES],
    secretHash,
    now,
  }));
  if (!state.exists) throw new Error('unreachable: client not created');
  return { clientId, recebedorId: state.recebedorId, scopes: state.scopes, secret };
}

export async function rotateClientSecret(ctx: AccessContext, clientId: string, secret = generateSecret()): Promise<{ clientId: string; secret: string; generation: number }> {
  const secretHash = await hashSecret(secret);
  const { state } = await onCliente(ctx, clientId, (now) => ({ type: 'RotacionarSegredo', clientId, secretHash, now }));
  return { clientId, secret, generation: state.exists ? state.generation : 0 };
}

/** Replaces the client's scopes; tokens already issued lose the scopes taken away at once (the guard reads the client's current set). */
export async function setClientScopes(ctx: AccessContext, clientId: string, scopes: string[]): Promise<PixScope[]> {
  const { state } = await onCliente(ctx, clientId, (now) => ({ type: 'DefinirEscopos', clientId, scopes, now }));
  return state.exists ? state.scopes : [];
}

export async function disableClient(ctx: AccessContext, clientId: string): Promise<void> {
  await onCliente(ctx, clientId, (now) => ({ type: 'DesativarCliente', clientId, now }));
}

export async function listReceivers(ctx: AccessContext): Promise<Recebedor[]> {
  const ids = await indexed(ctx, RECEIVER_INDEX_STREAM, 'recebedorId');
  const all = await Promise.all(ids.map(async (id) => toRecebedor(await loadRecebedor(ctx.store, id))));
  return all.filter((r): r is Recebedor => r !== undefined);
}

export interface ClientSummary {
  clientId: string;
  recebedorId: string;
  scopes: PixScope[];
  generation: number;
  enabled: boolean;
}

export async function listClients(ctx: AccessContext): Promise<ClientSummary[]> {
  const ids = await indexed(ctx, CLIENT_INDEX_STREAM, 'clientId');
  const all = await Promise.all(ids.map((id) => loadCliente(ctx.store, id)));
  return all.flatMap((c) => (c.exists ? [{ clientId: c.clientId, recebedorId: c.recebedorId, scopes: c.scopes, generation: c.generation, enabled: c.enabled }] : []));
}

export function toRecebedor(state: Awaited<ReturnType<typeof loadRecebedor>>): Recebedor | undefined {
  return state.exists ? { id: state.recebedorId, ...state.dados, chaves: [...state.chaves] } : undefined;
}

/** One entry per id: the deterministic event id makes a repeated entry a no-op in the store. */
async function index(ctx: AccessContext, stream: string, type: string, data: Record<string, string>): Promise<void> {
  await ctx.store.appendToStream(stream, [{ id: deterministicId(`${stream}:${Object.values(data).join('/')}`), type, data }], 'any');
}

async function indexed(ctx: AccessContext, stream: string, field: string): Promise<string[]> {
  const events = await ctx.store.readStream(stream);
  return [...new Set(events.map((e) => String(e.data[field])))];
}
