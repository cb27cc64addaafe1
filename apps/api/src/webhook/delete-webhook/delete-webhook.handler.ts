import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WebhookWriter } from '../webhook-writer';
import { DeleteWebhookCommand } from './delete-webhook.command';

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand, void> {
  constructor(private readonly writer: WebhookWriter) {}

  async execute({ chave }: DeleteWebhookCommand): Promise<void> {
    await this.writer.execute(chave, (now) => ({ type: 'RemoverWebhook', chave, now }));
  }
}
