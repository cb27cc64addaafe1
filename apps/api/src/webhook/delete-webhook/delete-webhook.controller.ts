import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DeleteWebhookCommand } from './delete-webhook.command';

@Controller('webhook')
export class DeleteWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':chave')
  @HttpCode(204)
  async remove(@Param('chave') chave: string): Promise<void> {
    await this.commands.execute(new DeleteWebhookCommand(chave));
  }
}
