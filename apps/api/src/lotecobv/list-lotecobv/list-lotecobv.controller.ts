import type { Readable } from 'node:stream';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { Recebedor } from '@pix/domain';
import { CurrentRecebedor, Scopes } from '../../auth/auth-context';
import { ListLoteCobVQuery } from './list-lotecobv.query';

@Controller('lotecobv')
export class ListLoteCobVController {
  constructor(private readonly queries: QueryBus) {}

  /** The page is streamed (see the handler): its media type is said here, as Fastify would for an object. */
  @Get()
  @Scopes('lotecobv.read')
  async list(@CurrentRecebedor() recebedor: Recebedor, @Query() query: Record<string, string | string[] | undefined>, @Res({ passthrough: true }) reply: FastifyReply): Promise<Readable> {
    const page = await this.queries.execute<ListLoteCobVQuery, Readable>(new ListLoteCobVQuery(recebedor, query));
    void reply.type('application/json; charset=utf-8');
    return page;
  }
}
