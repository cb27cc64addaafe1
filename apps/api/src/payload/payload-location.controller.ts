import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { Public } from '../auth/auth-context';
import { CLOCK, READ_DB, RECEIVER_DIRECTORY } from '../infrastructure/tokens';
import type { Clock, ReceiverDirectory } from '../shared/ports';
import { cobvPayload, readPayloadQuery, type PayloadQuery } from './cobv-payload';
import { payableCharge } from './payable-charge';
import { PAYLOAD_SIGNER } from './payload-tokens';
import type { PayloadSigner } from './payload-signer';

/**
 * The payload location a payer's bank reaches through the BR Code (`{LOCATION_HOST}/qr/v2/cobv/{token}`):
 * open to anyone who holds the capability URL, no OAuth. Answers the charge as a signed JWS.
 */
@Public()
@Controller('qr/v2')
export class PayloadLocationController {
  constructor(
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAYLOAD_SIGNER) private readonly signer: PayloadSigner,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
  ) {}

  @Get('cobv/:pixUrlAccessToken')
  async cobv(@Param('pixUrlAccessToken') token: string, @Query() query: PayloadQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const row = await payableCharge(this.db, this.directory, token);
    const now = this.clock.now();
    const at = readPayloadQuery(query ?? {}, now);
    const jws = await this.signer.sign(cobvPayload(row, { ...at, now }));
    void reply.header('content-type', 'application/jose');
    return jws;
  }

  /** The JWKS named by every payload's `jku`: current key and, while rotating, the previous one, with x5c. */
  @Get('jwks')
  jwks(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('content-type', 'application/json; charset=utf-8');
    return this.signer.jwks;
  }
}
