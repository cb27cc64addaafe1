import { decideSolicitacaoLote, isDomainError, type CobVState, type LocationReferenciada, type LocationState, type PayloadLocation, type SolicitacaoEmProcessamento } from '@pix/domain';

/** What a batch request needs to know and do about locations (the processor's ports). */
export interface ItemLocations {
  /** A new implicit location: numeric id and URL. */
  next(): Promise<{ id: number; location: string }>;
  /** The receiver's explicit location `id`, from its stream. */
  read(recebedorId: string, id: number): Promise<LocationState>;
  /** Links it to charge `txid` (idempotent for the same txid); refusals are domain errors. */
  claim(recebedorId: string, id: number, txid: string): Promise<PayloadLocation>;
  /** What `loc.id` names when the request cannot use it (`usable`: the charge's own). */
  referenced(recebedorId: string, id: number, usable: number | undefined): Promise<LocationReferenciada | undefined>;
  /**
   * After a request that named location `locId`, decided either way: the charge lets it go if a
   * DELETE freed it meanwhile (ADR 12, `confirmClaim`), and a claim the charge does not hold (an
   * attempt that claimed, then lost its append and was denied) is let go (`releaseUnheld`).
   */
  confirm(recebedorId: string, txid: string, locId: number, charge: CobVState): Promise<void>;
}

/**
 * The request's location, as PUT and PATCH /cobv get theirs (ADR 12): a new charge naming none
 * gets a new implicit one; a new charge naming a location of its receiver claims it, once the
 * request is decided as accepted (a denied request claims nothing; claiming again after a crash
 * is a no-op for the same txid), and so does a revision naming one for a charge that has none; a `loc.id` the request cannot use comes with what it names, the
 * reason it is denied. Batches used to deny every `loc.id` as "inexiste", though the contract's
 * batch items are CobVSolicitada, `loc` included.
 */
export async function withLocation(s: SolicitacaoEmProcessamento, charge: CobVState, recebedorId: string, locations: ItemLocations): Promise<SolicitacaoEmProcessamento> {
  const locId = 'input' in s.entrada ? s.entrada.input.loc?.id : undefined;
  if (locId === undefined) return charge.exists ? s : { ...s, novaLocation: await locations.next() };
  // A revision may give a charge with no location (unlinked) one, as PATCH /cobv does.
  const linking = s.via === 'REVISAO_PATCH' && charge.exists && !charge.loc;
  if (!linking && (charge.exists || s.via === 'REVISAO_PATCH')) return { ...s, locationReferenciada: await locations.referenced(recebedorId, locId, charge.exists ? charge.loc?.id : undefined) };
  const loc = await locations.read(recebedorId, locId);
  if (loc.exists) {
    const asked = { ...s, locationSolicitada: { id: loc.id, location: loc.location, criacao: loc.criacao } };
    if (decideSolicitacaoLote(asked, charge).status !== 'CRIADA') return asked;
    try {
      return { ...s, locationSolicitada: await locations.claim(recebedorId, locId, s.txid) };
    } catch (error) {
      // Taken by another charge (or not a cobv location): denied below, saying what it names.
      if (!isDomainError(error)) throw error;
    }
  }
  return { ...s, locationReferenciada: await locations.referenced(recebedorId, locId, undefined) };
}
