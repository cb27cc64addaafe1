import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { parseLoteCobVBody } from '@pix/contracts';
import { DomainError } from '@pix/domain';
import type { AppConfig } from '../../config/config';
import { CONFIG } from '../../infrastructure/tokens';
import { canonicalLoteId } from '../lote-id';
import { LoteCobVWriter } from '../lotecobv-writer';
import { PatchLoteCobVCommand } from './patch-lotecobv.command';

@CommandHandler(PatchLoteCobVCommand)
export class PatchLoteCobVHandler implements ICommandHandler<PatchLoteCobVCommand, void> {
  constructor(
    private readonly writer: LoteCobVWriter,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(command: PatchLoteCobVCommand): Promise<void> {
    const id = canonicalLoteId(command.id, 'consulta');
    const { value, violacoes } = parseLoteCobVBody(command.body, { maxSolicitacoes: this.config.loteMaxSolicitacoes, forCreation: false });
    if (!value) throw new DomainError('LoteCobVOperacaoInvalida', 'A requisição que busca revisar um lote de cobranças com vencimento não respeita o _schema_.', violacoes);
    await this.writer.execute(command.recebedor.id, id, (_state, now) => ({
      type: 'RevisarLote',
      id,
      ...(value.descricao !== undefined ? { descricao: value.descricao } : {}),
      solicitacoes: value.cobsv,
      now,
    }));
  }
}
