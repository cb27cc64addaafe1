import { Body, Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { PatchLoteCobVCommand } from './patch-lotecobv.command';

@Controller('lotecobv')
export class PatchLoteCobVController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':id')
  @HttpCode(202)
  @Scopes('lotecobv.write')
  async patch(@CurrentRecebedor() recebedor: Recebedor, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    await this.commands.execute(new PatchLoteCobVCommand(recebedor, id, body));
  }
}
