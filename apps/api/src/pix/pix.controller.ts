import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetPixQuery } from './get-pix/get-pix.query';
import { ListPixQuery } from './list-pix/list-pix.query';

/** GET /pix and GET /pix/{e2eid}. */
@Controller('pix')
export class PixController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':e2eid')
  get(@Param('e2eid') e2eid: string) {
    return this.queries.execute(new GetPixQuery(e2eid));
  }

  @Get()
  list(@Query() query: Record<string, string | string[] | undefined>) {
    return this.queries.execute(new ListPixQuery(query));
  }
}
