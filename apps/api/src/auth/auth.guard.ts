import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../infrastructure/tokens';
import { PIX_SCOPES, PUBLIC_KEY, type AuthContext } from './auth-context';

/**
 * TEMPORARY: admits every request as the configured local receiver with every scope, so the
 * tenant plumbing can be built first. The token-verifying guard replaces this body.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest();
    const auth: AuthContext = { clientId: 'local', recebedor: this.config.recebedor, scopes: new Set(PIX_SCOPES) };
    (request as { auth?: AuthContext }).auth = auth;
    return true;
  }
}
