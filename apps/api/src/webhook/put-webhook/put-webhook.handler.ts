import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { unsafeTargetReason } from '@pix/webhook-delivery';
import { DomainError } from '@pix/domain';
import type { AppConfig } from '../../config/config';
import { CONFIG } from '../../infrastructure/tokens';
import { toWebhookCompleto, WebhookWriter } from '../webhook-writer';
import { PutWebhookCommand } from './put-webhook.command';

@CommandHandler(PutWebhookCommand)
export class PutWebhookHandler implements ICommandHandler<PutWebhookCommand> {
  constructor(
    private readonly writer: WebhookWriter,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ recebedor, chave, body: value }: PutWebhookCommand) {
    // Where the URL leads is only known by resolving it: checked here, and again at each delivery.
    const unsafe = this.config.delivery.allowPrivateTargets ? undefined : await unsafeTargetReason(value.webhookUrl);
    if (unsafe)
      throw new DomainError('WebhookOperacaoInvalida', 'O webhookUrl não é um destino permitido.', [
        { razao: `O campo webhookUrl não respeita o _schema_: ${unsafe}.`, propriedade: 'webhook.webhookUrl', valor: value.webhookUrl.slice(0, 200) },
      ]);
    const state = await this.writer.execute(chave, (now) => ({
      type: 'ConfigurarWebhook',
      chave,
      webhookUrl: value.webhookUrl,
      now,
      // A key that is not this receiver's (another's, or nobody's) is refused by the decider.
      recebedorId: recebedor.id,
      chavesDoRecebedor: recebedor.chaves,
      politica: { permitirHttp: this.config.mode === 'local' },
    }));
    return toWebhookCompleto(state);
  }
}
