import { Module } from '@nestjs/common';
import { CreateLocHandler } from './create-loc.handler';
import { GetLocHandler } from './get-loc.handler';
import { ListLocHandler } from './list-loc.handler';
import { LocController } from './loc.controller';
import { LocWriter } from './loc-writer';
import { UnlinkLocHandler } from './unlink-loc.handler';

@Module({
  controllers: [LocController],
  providers: [LocWriter, CreateLocHandler, GetLocHandler, ListLocHandler, UnlinkLocHandler],
  // PUT /cobv claims a location through the same writer.
  exports: [LocWriter],
})
export class LocModule {}
