import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { parseRevisaoQuery } from '@pix/contracts';
import { cobvDecider, DomainError, type CobVState } from '@pix/domain';
import { readTypedStream, type EventStore } from '@pix/event-store';
import { CobVLookups, criacaoEmLotePendente, type CobVRow } from '@pix/read-models';
import { EVENT_STORE, READ_DB } from '../../infrastructure/tokens';
import { cobvStream } from '../../shared/streams';
import { TXID_PATTERN } from '../cobv-writer';
import { GetCobVQuery } from './get-cobv.query';

const notFound = () => new DomainError('CobVNaoEncontrada', 'Cobrança com vencimento não encontrada para o txid informado.');

@QueryHandler(GetCobVQuery)
export class GetCobVHandler implements IQueryHandler<GetCobVQuery, CobVRow> {
  /** Concurrent GETs share statements (see CobVLookups). */
  private readonly lookups: CobVLookups;

  constructor(
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    this.lookups = new CobVLookups(db);
  }

  async execute({ recebedor, txid, revisao }: GetCobVQuery): Promise<CobVRow> {
    if (!TXID_PATTERN.test(txid)) throw notFound();
    if (revisao === undefined) return (await this.lookups.find(recebedor.id, txid)) ?? (() => { throw notFound(); })();
    const parsed = parseRevisaoQuery(revisao);
    if (parsed.value === undefined) throw new DomainError('CobVConsultaInvalida', 'O parâmetro revisao não respeita o _schema_.', parsed.violacoes);
    // History lives in the receiver's own stream: the content as it last was at revision n (a
    // payment, or a change of `loc`, keeps the revision), with the location the charge has NOW:
    // the contract keeps no history of `loc`, and an old one may serve another charge since (ADR 12).
    let state: CobVState = cobvDecider.initialState;
    let atRevision: CobVRow | undefined;
    for (const e of await readTypedStream(this.store, cobvStream(recebedor.id, txid))) {
      state = cobvDecider.evolve(state, e);
      if (state.exists && state.revisao === parsed.value) atRevision = state;
    }
    if (!state.exists) throw notFound();
    // As the read model answers: a charge its batch is still creating does not exist yet (ADR 6).
    if (state.loteCobVId !== undefined && (await criacaoEmLotePendente(this.db, recebedor.id, state.loteCobVId, txid))) throw notFound();
    if (atRevision) {
      const { loc: _then, ...content } = atRevision;
      return state.loc ? { ...content, loc: state.loc } : content;
    }
    throw new DomainError('CobVConsultaInvalida', 'O parâmetro revisao corresponde a uma revisão inexistente para a cobrança.', [
      { razao: 'O parâmetro revisao corresponde a uma revisão inexistente para a cobrança apontada pelo parâmetro txid.', propriedade: 'revisao', valor: revisao },
    ]);
  }
}
