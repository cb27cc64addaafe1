import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { businessDateOf } from '@pix/domain';
import { findCobVByLocationToken } from '@pix/read-models';
import { Public } from '../auth/auth-context';
import { CLOCK, READ_DB } from '../infrastructure/tokens';
import type { Clock } from '../shared/ports';
import { cobvPayload, payloadNotFound, readPayloadQuery, type PayloadQuery } from './cobv-payload';
import { PAYLOAD_SIGNER } from './payload-tokens';
import type { PayloadSigner } from './payload-signer';

// A location token is ours (32 hex) or, at most, what fits a 77-character location.
const TOKEN = /^[A-Za-z0-9._~-]{1,77}$/;

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
  ) {}

  @Get('cobv/:pixUrlAccessToken')
  async cobv(@Param('pixUrlAccessToken') token: string, @Query() query: PayloadQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const row = TOKEN.test(token) ? await findCobVByLocationToken(this.db, token) : undefined;
    if (!row) throw payloadNotFound();
    // Removed or paid charges are not served (the contract leaves it to us): a bank that skipped
    // the status check could otherwise collect a charge twice. The detail says which.
    if (row.status !== 'ATIVA') throw payloadNotFound(`A cobrança desta location está ${row.status} e não pode ser paga.`);
    const now = this.clock.now();
    const at = readPayloadQuery(query ?? {}, businessDateOf(now));
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
