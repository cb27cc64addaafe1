import { Inject, Logger, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { EventStore } from '@pix/event-store';
import { charsetRefusal } from '@pix/http-edge';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { AppConfig } from '../config/config';
import { CLOCK, CONFIG, EVENT_STORE, READ_DB } from '../infrastructure/tokens';
import type { Clock } from '../shared/ports';
import { chargesInReadModel } from './admin/key-charges';
import { seedLocalAccess } from './local-seed';
import { IssueTokenHandler } from './token/issue-token.handler';
import { TOKEN_PATH, TokenController } from './token/token.controller';
import { parseForm } from './token/token-request';

/** The largest token request form read (client id, secret, grant type and scopes fit many times over). */
export const TOKEN_FORM_MAX_BYTES = 16 * 1024;

/** OAuth2 token endpoint, and local mode's seeded receiver and client. */
@Module({
  controllers: [TokenController],
  providers: [IssueTokenHandler],
})
export class AccessModule implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Access');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  /**
   * RFC 6749 token requests are forms, and the rest of the API is JSON only: the form parser
   * answers 415 (as if absent) on every route but the token endpoint.
   */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // A token request is a few hundred bytes: a 4 MiB form (MAX_BODY_BYTES) was a million parameters to read, for nothing.
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: TOKEN_FORM_MAX_BYTES }, (request: FastifyRequest, body: string | Buffer, done) => {
      if (request.routeOptions.url !== TOKEN_PATH) {
        done(Object.assign(new Error(`Unsupported Media Type: application/x-www-form-urlencoded`), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }), undefined);
        return;
      }
      // The form is read as UTF-8 (percent-escapes too): another declared charset is 415, as for JSON.
      const refused = charsetRefusal(request.headers['content-type']);
      if (refused) return done(refused, undefined);
      done(null, parseForm(body.toString()));
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const local = this.config.recebedor;
    if (this.config.mode !== 'local' || !local) return;
    const changes = await seedLocalAccess(
      { store: this.store, now: () => this.clock.now(), charges: chargesInReadModel(this.db) },
      { recebedor: local, clientId: this.config.auth.localClientId, clientSecret: this.config.auth.localClientSecret },
    );
    for (const change of changes) this.logger.log(`local mode: ${change}`);
  }
}
