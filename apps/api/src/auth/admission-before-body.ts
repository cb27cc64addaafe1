import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../http/problem.filter';
import { ROUTE_SCOPES } from './auth-context';
import type { AuthGuard } from './auth.guard';

/**
 * A scoped route's token is checked before its body is read: a caller without a usable token
 * gets its 401 (or 403) without the API reading, parsing and validating what it sent. Otherwise
 * anyone could make the API parse 4 MiB bodies (about 35 ms of its one thread each) for free,
 * where only a client holding a token should cost that much. The guard then finds the request
 * admitted and does not check it again; routes without @Scopes are left to it.
 */
export function installAdmissionBeforeBody(fastify: FastifyInstance, guard: Pick<AuthGuard, 'admit'>): void {
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const required = (request.routeOptions.config as { [ROUTE_SCOPES]?: readonly string[] } | undefined)?.[ROUTE_SCOPES];
    if (!required) return done(null, payload);
    // Answered from here, the hook chain stops: `done` is not called (Fastify's hook contract).
    guard.admit(request, reply, required).then(
      () => done(null, payload),
      (error: unknown) => sendProblem(error, request, reply),
    );
  });
}
