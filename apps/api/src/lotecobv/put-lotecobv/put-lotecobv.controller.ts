import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { PutLoteCobVCommand } from './put-lotecobv.command';

@Controller('lotecobv')
export class PutLoteCobVController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 at once: every request is then processed into a charge (CRIADA) or denied (NEGADA). */
  @Put(':id')
  @HttpCode(202)
  @Scopes('lotecobv.write')
  async put(@CurrentRecebedor() recebedor: Recebedor, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    await this.commands.execute(new PutLoteCobVCommand(recebedor, id, body));
  }
}
