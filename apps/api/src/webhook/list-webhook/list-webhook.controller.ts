import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { ListWebhookQuery } from './list-webhook.query';

@Controller('webhook')
export class ListWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Scopes('webhook.read')
  list(@CurrentRecebedor() recebedor: Recebedor, @Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListWebhookQuery(recebedor, query));
  }
}
