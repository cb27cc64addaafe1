import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenException, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';

/**
 * The operator endpoints (/notifier/...) show every receiver's notifications and can resend
 * them: only a caller with the operator token gets in. Without a configured token they stay shut.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(token: string | undefined) {
    this.expected = token ? digest(token) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true; // Kafka handlers are not HTTP routes
    const request = context.switchToHttp().getRequest<{ url: string; headers: Record<string, string | undefined> }>();
    if (!request.url.startsWith('/notifier')) return true; // health stays open for probes
    if (!this.expected) throw new ForbiddenException('Operator endpoints are off: set NOTIFIER_OPERATOR_TOKEN to use them.');
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    // Compare digests so the comparison takes the same time whatever the length given.
    if (!given || !timingSafeEqual(digest(given), this.expected)) throw new UnauthorizedException('Operator token required (Authorization: Bearer <NOTIFIER_OPERATOR_TOKEN>).');
    return true;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();
