import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { parseLoteCobVBody } from '@pix/contracts';
import { DomainError, repeatsLastPut } from '@pix/domain';
import type { EventStore } from '@pix/event-store';
import { existingCobVTxids, findSolicitacoesByTxid } from '@pix/read-models';
import type { AppConfig } from '../../config/config';
import { CONFIG, EVENT_STORE, READ_DB } from '../../infrastructure/tokens';
import { canonicalLoteId } from '../lote-id';
import { LoteCobVWriter } from '../lotecobv-writer';
import { PutLoteCobVCommand } from './put-lotecobv.command';
import { changesNoCharge } from './repeat-without-effect';

const SCHEMA_DETAIL = 'A requisição que busca alterar ou criar um lote de cobranças com vencimento não respeita o _schema_.';

@CommandHandler(PutLoteCobVCommand)
export class PutLoteCobVHandler implements ICommandHandler<PutLoteCobVCommand, void> {
  constructor(
    private readonly writer: LoteCobVWriter,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute(command: PutLoteCobVCommand): Promise<void> {
    const recebedorId = command.recebedor.id;
    const id = canonicalLoteId(command.id, 'criacao');
    const { value, violacoes } = parseLoteCobVBody(command.body, { maxSolicitacoes: this.config.loteMaxSolicitacoes, forCreation: true });
    if (!value) throw new DomainError('LoteCobVOperacaoInvalida', SCHEMA_DETAIL, violacoes);
    const descricao = value.descricao ?? '';
    const solicitacoes = value.cobsv.map((c) => ({ txid: c.txid, corpo: c.corpo }));
    await this.writer.execute(recebedorId, id, async (state, now) => ({
      type: 'CriarOuAlterarLote',
      id,
      descricao,
      solicitacoes,
      now,
      txidsIndisponiveis: state.exists ? [] : await this.unavailable(recebedorId, id, value.cobsv.map((c) => c.txid)),
      // Read only for a repeat: whether it may be recorded as nothing (see changesNoCharge).
      ...(repeatsLastPut(state, descricao, solicitacoes) ? { semEfeitoNasCobrancas: await changesNoCharge(this.store, command.recebedor, id, solicitacoes, now) } : {}),
    }));
  }

  /** The receiver's charges that exist (from PUT /cobv or another batch) and requests of its other batches. */
  private async unavailable(recebedorId: string, id: string, txids: string[]): Promise<string[]> {
    const charges = await existingCobVTxids(this.db, recebedorId, txids);
    const inOtherBatches = (await findSolicitacoesByTxid(this.db, recebedorId, txids)).filter((r) => r.loteCobVId !== id);
    return [...new Set([...charges, ...inOtherBatches.map((r) => r.txid)])];
  }
}
