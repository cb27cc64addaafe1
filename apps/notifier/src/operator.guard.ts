import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenException, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';

/**
 * The operator endpoints (/notifier/...) show every receiver's notifications and can resend
 * them: only a caller with the operator token gets in. Without a configured token they stay shut.
 * Every HTTP route is closed but those of the controllers named open (the probes): decided by the
 * route's controller, never by the URL (`/%6Eotifier/...` reached the operator routes untested).
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  private readonly expected?: Buffer;
  private readonly open: ReadonlySet<unknown>;

  constructor(token: string | undefined, openControllers: readonly (new (...args: never[]) => unknown)[]) {
    this.expected = token ? digest(token) : undefined;
    this.open = new Set(openControllers);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true; // Kafka handlers are not HTTP routes
    if (this.open.has(context.getClass())) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    if (!this.expected) throw new ForbiddenException('Operator endpoints are off: set NOTIFIER_OPERATOR_TOKEN to use them.');
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    // Compare digests so the comparison takes the same time whatever the length given.
    if (!given || !timingSafeEqual(digest(given), this.expected)) throw new UnauthorizedException('Operator token required (Authorization: Bearer <NOTIFIER_OPERATOR_TOKEN>).');
    return true;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();
