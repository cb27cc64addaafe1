import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post } from '@nestjs/common';
import type { NotificationOutbox } from '@pix/webhook-delivery';
import { parseResendBody } from './resend-request';

/** The app provides the outbox under this token (the notifier app, or the API in local mode). */
export const NOTIFICATION_OUTBOX = Symbol('NotificationOutbox');

/**
 * Operator endpoints for notifications (the notifier app, and the API in local mode): one
 * notification with its attempt log, stats, and resends that keep each notification's id.
 */
@Controller('notifier')
export class NotificationsController {
  constructor(@Inject(NOTIFICATION_OUTBOX) private readonly outbox: Pick<NotificationOutbox, 'stats' | 'get' | 'attempts' | 'resend'>) {}

  @Get('stats')
  stats() {
    return this.outbox.stats();
  }

  @Get('notifications/:id')
  async get(@Param('id') id: string) {
    const n = /^[0-9a-f-]{36}$/.test(id) ? await this.outbox.get(id) : undefined;
    if (!n) throw new NotFoundException('Notificação não encontrada.');
    return { ...n, attempts: await this.outbox.attempts(id) };
  }

  /** Body: { ids?: [...], endToEndIds?: [...], inicio?: RFC 3339, fim?: RFC 3339 }. */
  @Post('resend')
  @HttpCode(202)
  async resend(@Body() body: unknown) {
    return { reenviadas: await this.outbox.resend(parseResendBody(body)) };
  }
}
