import type { TLSSocket } from 'node:tls';
import { problemForStatus, replyWithProblem } from '@pix/http-edge';
import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config';

/** The payload location and its JWKS (ADR 11): what a payer's bank fetches, with no certificate of ours. */
export const isLocationRequest = (method: string, url: string | undefined) => (method === 'GET' || method === 'HEAD') && (url ?? '').startsWith('/qr/');

/**
 * Under mTLS the only connections without a verified client certificate are those made to the
 * location's host name (tls.ts). On them only the location is served: a client that names that
 * host in SNI and another in `Host`, or asks for any other path, is refused with 403 and the
 * connection closed, so no API route is ever reached without a certificate.
 */
export function installLocationOnlyWithoutCertificate(fastify: FastifyInstance, config: Pick<AppConfig, 'tls'>): void {
  if (!config.tls?.clientCaFile) return;
  fastify.addHook('onRequest', (request, reply, done) => {
    if ((request.raw.socket as Partial<TLSSocket>).authorized === true || isLocationRequest(request.method, request.raw.url)) return done();
    const detail = 'Certificado de cliente ausente ou não confiável: esta conexão serve só o location de payload (/qr/).';
    replyWithProblem(reply, problemForStatus(403, correlationIdOf(request), detail), { close: true });
  });
}
