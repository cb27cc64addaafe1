import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetWebhookQuery } from './get-webhook.query';

@Controller('webhook')
export class GetWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':chave')
  get(@Param('chave') chave: string) {
    return this.queries.execute(new GetWebhookQuery(chave));
  }
}
