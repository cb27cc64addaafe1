import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PutLoteCobVCommand } from './put-lotecobv.command';

@Controller('lotecobv')
export class PutLoteCobVController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 at once: every request is then processed into a charge (CRIADA) or denied (NEGADA). */
  @Put(':id')
  @HttpCode(202)
  async put(@Param('id') id: string, @Body() body: unknown): Promise<void> {
    await this.commands.execute(new PutLoteCobVCommand(id, body));
  }
}
