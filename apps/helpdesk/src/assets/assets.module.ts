import { Module } from '@nestjs/common';
import { AssetInventoryClientModule } from './asset-inventory.module';
import { AssetsTools } from './assets.tools';

/** Tools over the asset inventory, a downstream service (docs/downstream.md). */
@Module({ imports: [AssetInventoryClientModule], providers: [AssetsTools] })
export class AssetsModule {}
