import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { parseWebhookBody } from '@pix/contracts';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { ParsedBody } from '../../shared/valid-body';
import { PutWebhookCommand } from './put-webhook.command';

const validWebhook = new ParsedBody(parseWebhookBody, 'WebhookOperacaoInvalida', 'A requisição que busca configurar o webhook não respeita o _schema_.');

/** Synchronous: answers the registration at once, or the problem. */
@Controller('webhook')
export class PutWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Put(':chave')
  @HttpCode(200)
  @Scopes('webhook.write')
  put(@CurrentRecebedor() recebedor: Recebedor, @Param('chave') chave: string, @Body(validWebhook) body: { webhookUrl: string }) {
    return this.commands.execute(new PutWebhookCommand(recebedor, chave, body));
  }
}
