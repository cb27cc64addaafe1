import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { GetWebhookQuery } from './get-webhook.query';

@Controller('webhook')
export class GetWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':chave')
  @Scopes('webhook.read')
  get(@CurrentRecebedor() recebedor: Recebedor, @Param('chave') chave: string) {
    return this.queries.execute(new GetWebhookQuery(recebedor, chave));
  }
}
