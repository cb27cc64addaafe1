import { Inject, Injectable, Logger } from '@nestjs/common';
import { cobvDecider, DomainError, isDomainError, locationDecider, type CobVState, type LocationCommand, type LocationEvent, type LocationState, type PayloadLocation } from '@pix/domain';
import { aggregateStream, handleCommand, type EventStore, type GlobalPosition } from '@pix/event-store';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, LOCATION_IDS, PROJECTIONS } from '../infrastructure/tokens';
import type { Clock, LocationIds } from '../shared/ports';
import { cobvStream, locStream } from '../shared/streams';

/** Twice the longest a request may run (REQUEST_TIMEOUT_MS, 30 s): a claim older than this has no request behind it. */
const ABANDONED_CLAIM_MS = 60_000;

/** Location ids are decimal int64s from our sequence; anything else names no location. */
export const parseLocId = (raw: string): number | undefined => (/^\d{1,15}$/.test(raw) ? Number(raw) : undefined);

/**
 * Writes of payload locations (`loc-{rid}/{id}`), through the one command loop, and the unlink
 * of a charge from its location. Returns once `rm_loc` (and `rm_cobv`) show the change.
 */
@Injectable()
export class LocWriter {
  private readonly logger = new Logger('LocWriter');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOCATION_IDS) private readonly ids: LocationIds,
  ) {}

  /** `POST /loc`: a new id from the sequence shared with implicit locations, and a random token. */
  async create(recebedorId: string, tipoCob: 'cobv'): Promise<Extract<LocationState, { exists: true }>> {
    const { id, location } = await this.ids.next();
    const state = await this.execute(recebedorId, id, (now) => ({ type: 'CriarLocation', id, tipoCob, location, recebedorId, now }));
    if (!state.exists) throw new Error(`location ${id} not created`);
    return state;
  }

  /** The location as its stream says (the write side's truth, not the read model). */
  async read(recebedorId: string, id: number): Promise<LocationState> {
    return (await aggregateStream(this.store, locStream(recebedorId, id), locationDecider)).state;
  }

  /**
   * Claims the location for charge `txid` (appended at the revision read: of two charges racing
   * for it, one wins). Refusals come back as the charge's own problem on `cobv.loc.id`.
   */
  async claim(recebedorId: string, id: number, txid: string): Promise<PayloadLocation> {
    await this.releaseAbandonedClaim(recebedorId, id, txid);
    try {
      const state = await this.execute(recebedorId, id, (now) => ({ type: 'VincularLocation', txid, tipoCob: 'cobv', now, campo: 'cobv.loc.id' }));
      if (!state.exists) throw new DomainError('PayloadLocationNaoEncontrado', 'Location não encontrada.');
      return { id: state.id, location: state.location, criacao: state.criacao };
    } catch (error) {
      if (!isDomainError(error) || !error.kind.startsWith('PayloadLocation')) throw error;
      const razao = error.kind === 'PayloadLocationNaoEncontrado' ? 'O location referenciado por cobv.loc.id inexiste.' : (error.violacoes[0]?.razao ?? error.detail);
      throw new DomainError('CobVOperacaoInvalida', 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.', [
        { razao, propriedade: 'cobv.loc.id', valor: String(id) },
      ]);
    }
  }

  /**
   * Frees an explicit location (no charge → no event). Returns the txid it was freed from, read at
   * the append (it may differ from what the caller read before: a claim in between).
   */
  async unlinkLocation(recebedorId: string, id: number): Promise<string | undefined> {
    const { events } = await this.handle(recebedorId, id, (now) => ({ type: 'DesvincularLocation', now }));
    return events.find((e) => e.type === 'LocationDesvinculada')?.data.txid;
  }

  /**
   * Frees location `id` from charge `txid` when the charge does not hold it: a request that
   * claimed it and was then refused (its charge append lost a race, and the decision on the new
   * state refused) or took another path. Nothing when it serves another charge, or this one.
   */
  async releaseUnheld(recebedorId: string, id: number, txid: string): Promise<void> {
    const loc = await this.read(recebedorId, id);
    if (!loc.exists || loc.txid !== txid) return;
    const charge = (await aggregateStream(this.store, cobvStream(recebedorId, txid), cobvDecider)).state;
    if (charge.exists && charge.loc?.id === id) return;
    await this.handle(recebedorId, id, (now) => ({ type: 'DesvincularLocation', now, txid }));
  }

  /**
   * A claim older than any request can be (ABANDONED_CLAIM_MS) whose charge does not hold the
   * location was left by a request that died between the claim and its charge's append (a
   * kill -9; or a DELETE between unlinking the charge and the location): nobody will finish it,
   * and it kept the location from every other charge (an audit). A claim younger than that may be
   * a request still on its way to its append, and is left alone.
   */
  private async releaseAbandonedClaim(recebedorId: string, id: number, txid: string): Promise<void> {
    const { state, events } = await aggregateStream(this.store, locStream(recebedorId, id), locationDecider);
    if (!state.exists || state.txid === undefined || state.txid === txid) return;
    const claimed = [...events].reverse().find((e) => e.type === 'LocationVinculada');
    if (claimed?.type !== 'LocationVinculada' || this.clock.now().getTime() - Date.parse(claimed.data.em) < ABANDONED_CLAIM_MS) return;
    await this.releaseUnheld(recebedorId, id, state.txid);
  }

  /** The charge stops using location `locId` (nothing when it does not use it, or does not exist); the charge after. */
  async unlinkCharge(recebedorId: string, txid: string, locId: number): Promise<CobVState> {
    const { state, position } = await handleCommand(this.store, cobvStream(recebedorId, txid), cobvDecider, () => ({
      type: 'DesvincularLocationCobV' as const,
      txid,
      locId,
      now: this.clock.now(),
    }));
    await this.caughtUp(['cobv', 'loc'], position);
    return state;
  }

  private async execute(recebedorId: string, id: number, build: (now: Date) => LocationCommand): Promise<LocationState> {
    return (await this.handle(recebedorId, id, build)).state;
  }

  private async handle(recebedorId: string, id: number, build: (now: Date) => LocationCommand): Promise<{ state: LocationState; events: LocationEvent[] }> {
    const { state, events, position } = await handleCommand(this.store, locStream(recebedorId, id), locationDecider, () => build(this.clock.now()));
    await this.caughtUp(['loc'], position);
    return { state, events };
  }

  private async caughtUp(names: string[], position: GlobalPosition | undefined): Promise<void> {
    if (position && !(await this.projections.waitFor(names, position))) this.logger.warn(`read models ${names.join(', ')} not caught up after 5 s; the write is stored`);
  }
}
