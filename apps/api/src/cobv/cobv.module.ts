import { Module } from '@nestjs/common';
import { LocModule } from '../loc/loc.module';
import { CobVWriter } from './cobv-writer';
import { GetCobVController } from './get-cobv/get-cobv.controller';
import { GetCobVHandler } from './get-cobv/get-cobv.handler';
import { ListCobVController } from './list-cobv/list-cobv.controller';
import { ListCobVHandler } from './list-cobv/list-cobv.handler';
import { PatchCobVController } from './patch-cobv/patch-cobv.controller';
import { PatchCobVHandler } from './patch-cobv/patch-cobv.handler';
import { PutCobVController } from './put-cobv/put-cobv.controller';
import { PutCobVHandler } from './put-cobv/put-cobv.handler';

@Module({
  imports: [LocModule],
  controllers: [ListCobVController, GetCobVController, PutCobVController, PatchCobVController],
  providers: [CobVWriter, PutCobVHandler, PatchCobVHandler, GetCobVHandler, ListCobVHandler],
})
export class CobVModule {}
