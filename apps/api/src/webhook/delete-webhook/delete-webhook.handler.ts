import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WebhookWriter } from '../webhook-writer';
import { DeleteWebhookCommand } from './delete-webhook.command';

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand, void> {
  constructor(private readonly writer: WebhookWriter) {}

  /** Another receiver's registration is absent to this one: 404, as the decider says. */
  async execute({ recebedor, chave }: DeleteWebhookCommand): Promise<void> {
    await this.writer.execute(chave, (now) => ({ type: 'RemoverWebhook', chave, now, recebedorId: recebedor.id }));
  }
}
