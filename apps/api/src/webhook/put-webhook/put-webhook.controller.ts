import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PutWebhookCommand } from './put-webhook.command';

/** Synchronous: answers the registration at once, or the problem. */
@Controller('webhook')
export class PutWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Put(':chave')
  @HttpCode(200)
  put(@Param('chave') chave: string, @Body() body: unknown) {
    return this.commands.execute(new PutWebhookCommand(chave, body));
  }
}
