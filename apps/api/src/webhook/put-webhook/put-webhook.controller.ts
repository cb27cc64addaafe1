import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { PutWebhookCommand } from './put-webhook.command';

/** Synchronous: answers the registration at once, or the problem. */
@Controller('webhook')
export class PutWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Put(':chave')
  @HttpCode(200)
  @Scopes('webhook.write')
  put(@CurrentRecebedor() recebedor: Recebedor, @Param('chave') chave: string, @Body() body: unknown) {
    return this.commands.execute(new PutWebhookCommand(recebedor, chave, body));
  }
}
