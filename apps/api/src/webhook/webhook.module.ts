import { Module } from '@nestjs/common';
import { DeleteWebhookController } from './delete-webhook/delete-webhook.controller';
import { DeleteWebhookHandler } from './delete-webhook/delete-webhook.handler';
import { GetWebhookController } from './get-webhook/get-webhook.controller';
import { GetWebhookHandler } from './get-webhook/get-webhook.handler';
import { ListWebhookController } from './list-webhook/list-webhook.controller';
import { ListWebhookHandler } from './list-webhook/list-webhook.handler';
import { PutWebhookController } from './put-webhook/put-webhook.controller';
import { PutWebhookHandler } from './put-webhook/put-webhook.handler';
import { WebhookWriter } from './webhook-writer';

@Module({
  controllers: [ListWebhookController, GetWebhookController, PutWebhookController, DeleteWebhookController],
  providers: [WebhookWriter, PutWebhookHandler, DeleteWebhookHandler, GetWebhookHandler, ListWebhookHandler],
})
export class WebhookModule {}
