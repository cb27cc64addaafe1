import { Body, Controller, HttpCode, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PatchLoteCobVCommand } from './patch-lotecobv.command';

@Controller('lotecobv')
export class PatchLoteCobVController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':id')
  @HttpCode(202)
  async patch(@Param('id') id: string, @Body() body: unknown): Promise<void> {
    await this.commands.execute(new PatchLoteCobVCommand(id, body));
  }
}
