import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { PayloadLocationWire } from '@pix/contracts';
import type { Recebedor } from '@pix/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  async create(@CurrentRecebedor() recebedor: Recebedor, @Body() body: unknown, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await this.commands.execute<CreateLocCommand, PayloadLocationWire>(new CreateLocCommand(recebedor, body));
    // The contract's 201 names the created location in a `location` header: its URL here,
    // GET /loc/{id}, as a reference on the path the client called (no trust in a Host header).
    reply.header('location', `${request.url.split('?')[0].replace(/\/$/, '')}/${created.id}`);
    return created;
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
