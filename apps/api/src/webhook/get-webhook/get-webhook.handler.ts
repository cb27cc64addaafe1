import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { toWebhookCompleto, WebhookWriter } from '../webhook-writer';
import { GetWebhookQuery } from './get-webhook.query';

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(private readonly writer: WebhookWriter) {}

  async execute({ chave }: GetWebhookQuery) {
    return toWebhookCompleto(await this.writer.current(chave));
  }
}
