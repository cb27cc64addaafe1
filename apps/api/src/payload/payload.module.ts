import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../infrastructure/tokens';
import { PayloadLocationController } from './payload-location.controller';
import { resolvePayloadKeys } from './payload-keys';
import { PayloadSigner } from './payload-signer';
import { PAYLOAD_SIGNER } from './payload-tokens';
import { CobVQrCodeController } from './qrcode.controller';

/** Payload locations (the signed JWS a payer's bank reads), their JWKS, and QR code images. */
@Module({
  controllers: [PayloadLocationController, CobVQrCodeController],
  providers: [
    {
      provide: PAYLOAD_SIGNER,
      inject: [CONFIG],
      useFactory: async (config: AppConfig) => PayloadSigner.create(await resolvePayloadKeys(config), config.locationHost),
    },
  ],
  exports: [PAYLOAD_SIGNER],
})
export class PayloadModule {}
