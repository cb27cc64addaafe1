import { Module } from '@nestjs/common';
import { LocModule } from '../loc/loc.module';
import { GetLoteCobVController } from './get-lotecobv/get-lotecobv.controller';
import { GetLoteCobVHandler } from './get-lotecobv/get-lotecobv.handler';
import { ListLoteCobVController } from './list-lotecobv/list-lotecobv.controller';
import { ListLoteCobVHandler } from './list-lotecobv/list-lotecobv.handler';
import { LoteCobVWriter } from './lotecobv-writer';
import { PatchLoteCobVController } from './patch-lotecobv/patch-lotecobv.controller';
import { PatchLoteCobVHandler } from './patch-lotecobv/patch-lotecobv.handler';
import { LoteCobVProcessor } from './processor/lotecobv-processor';
import { PutLoteCobVController } from './put-lotecobv/put-lotecobv.controller';
import { PutLoteCobVHandler } from './put-lotecobv/put-lotecobv.handler';

@Module({
  imports: [LocModule],
  controllers: [ListLoteCobVController, GetLoteCobVController, PutLoteCobVController, PatchLoteCobVController],
  providers: [LoteCobVWriter, PutLoteCobVHandler, PatchLoteCobVHandler, GetLoteCobVHandler, ListLoteCobVHandler, LoteCobVProcessor],
})
export class LoteCobVModule {}
