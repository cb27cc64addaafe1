import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { DeleteWebhookCommand } from './delete-webhook.command';

@Controller('webhook')
export class DeleteWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':chave')
  @HttpCode(204)
  @Scopes('webhook.write')
  async remove(@CurrentRecebedor() recebedor: Recebedor, @Param('chave') chave: string): Promise<void> {
    await this.commands.execute(new DeleteWebhookCommand(recebedor, chave));
  }
}
