import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ListWebhookQuery } from './list-webhook.query';

@Controller('webhook')
export class ListWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  list(@Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListWebhookQuery(query));
  }
}
