import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { toPayloadLocationCompleta, type LocRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../auth/auth-context';
import { CreateLocCommand } from './create-loc.handler';
import { GetLocQuery } from './get-loc.handler';
import { ListLocQuery } from './list-loc.handler';
import { UnlinkLocCommand } from './unlink-loc.handler';

/** The contract's payload locations (`/loc`), for due charges only. */
@Controller('loc')
export class LocController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @Scopes('payloadlocation.write')
  create(@CurrentRecebedor() recebedor: Recebedor, @Body() body: unknown) {
    return this.commands.execute(new CreateLocCommand(recebedor, body));
  }

  @Get()
  @Scopes('payloadlocation.read')
  list(@CurrentRecebedor() recebedor: Recebedor, @Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListLocQuery(recebedor, query));
  }

  @Get(':id')
  @Scopes('payloadlocation.read')
  async get(@CurrentRecebedor() recebedor: Recebedor, @Param('id') id: string) {
    return toPayloadLocationCompleta(await this.queries.execute<GetLocQuery, LocRow>(new GetLocQuery(recebedor, id)));
  }

  @Delete(':id/txid')
  @HttpCode(200)
  @Scopes('payloadlocation.write')
  unlink(@CurrentRecebedor() recebedor: Recebedor, @Param('id') id: string) {
    return this.commands.execute(new UnlinkLocCommand(recebedor, id));
  }
}
