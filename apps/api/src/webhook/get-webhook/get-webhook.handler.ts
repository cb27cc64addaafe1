import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { webhookDoRecebedor } from '@pix/domain';
import { toWebhookCompleto, WebhookWriter } from '../webhook-writer';
import { GetWebhookQuery } from './get-webhook.query';

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(private readonly writer: WebhookWriter) {}

  /** Another receiver's registration answers 404, exactly as no registration does. */
  async execute({ recebedor, chave }: GetWebhookQuery) {
    return toWebhookCompleto(webhookDoRecebedor(await this.writer.current(chave), recebedor.id));
  }
}
