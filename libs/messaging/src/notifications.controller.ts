import { Body, Controller, Get, HttpCode, Inject, Logger, NotFoundException, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { inRequestContext } from '@pix/observability';
import type { NotificationOutbox } from '@pix/webhook-delivery';
import { parseListQuery } from './list-request';
import { describeResend, parseResendBody } from './resend-request';

/** The app provides the outbox under this token (the notifier app, or the API in local mode). */
export const NOTIFICATION_OUTBOX = Symbol('NotificationOutbox');
/** What the operator endpoints use of the outbox (a delegate must provide all of it). */
export type OperatorOutbox = Pick<NotificationOutbox, 'stats' | 'get' | 'attempts' | 'resend' | 'page'>;

/**
 * Operator endpoints for notifications (the notifier app, and the API in local mode): the newest
 * notifications and one notification, each with its attempt log, stats, and resends that keep
 * each notification's id.
 */
@Controller('notifier')
export class NotificationsController {
  private readonly logger = new Logger('Notifier');

  constructor(@Inject(NOTIFICATION_OUTBOX) private readonly outbox: OperatorOutbox) {}

  @Get('stats')
  stats() {
    return this.outbox.stats();
  }

  /**
   * The newest notifications first, with their attempts (list-request.ts: `status`, `limit` 1 to
   * 200, `before`); `proximo` is the next page's `before`, null after the last page.
   */
  @Get('notifications')
  async list(@Query() query: Record<string, unknown> | undefined) {
    const { items, next } = await this.outbox.page(parseListQuery(query ?? {}));
    return { notificacoes: items, proximo: next };
  }

  @Get('notifications/:id')
  async get(@Param('id') id: string) {
    const n = /^[0-9a-f-]{36}$/.test(id) ? await this.outbox.get(id) : undefined;
    if (!n) throw new NotFoundException('Notificação não encontrada.');
    return { ...n, attempts: await this.outbox.attempts(id) };
  }

  /** Body: { ids?: [...], endToEndIds?: [...], status?: one of the statuses, inicio?: RFC 3339, fim?: RFC 3339 }. */
  @Post('resend')
  @HttpCode(202)
  async resend(@Body() body: unknown, @Req() request: FastifyRequest) {
    const selector = parseResendBody(body);
    const reenviadas = await this.outbox.resend(selector);
    // Under the operator's request's correlation id: the deliveries that follow log their cash-in's (ADR 17).
    inRequestContext(request, () => this.logger.log(`resend: ${reenviadas} notifications due again now (${describeResend(selector)})`));
    return { reenviadas };
  }
}
