import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { installClosingRefusal } from './closing';
import { CONNECTION_IDLE_MS, installConnectionCap } from './connection-limits';
import { installHeaderChecks } from './duplicate-headers';
import { problemForStatus, replyWithProblem } from './edge-problem';
import { answerClientError, installServerEdge } from './protocol-errors';
import { installSentUrl, rewriteUndecodable } from './undecodable-url';

type FrameworkErrors = (error: Error, request: FastifyRequest, reply: FastifyReply) => void;

/** Longest a client may take to send a whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Node's own deadlines, which only the server's constructor takes: headersTimeout is otherwise
 * 60 s, checked every 30 s, so a stalled request held its socket 60-65 s, not REQUEST_TIMEOUT_MS.
 */
export const SERVER_DEADLINES = { headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 5_000 };

/**
 * No path parameter is too long for the router: the request line's own bound (Node's header
 * limit, answered 431) is the only one, so every parameter reaches its route's validation and its
 * endpoint's problem. With a router limit (Fastify's 100, the API's 1,000 until an audit of
 * 2026-11-27), one character more was a bare 400 RequisicaoInvalida, which reads such as
 * `GET /webhook/{chave}` do not declare.
 */
const MAX_PARAM_LENGTH = Number.MAX_SAFE_INTEGER;

/** A URL the router cannot decode (FST_ERR_BAD_URL) is the client's error, told as a problem. */
const frameworkErrors: FrameworkErrors = (error, request, reply) => {
  const status = (error as { statusCode?: number }).statusCode ?? 400;
  replyWithProblem(reply, problemForStatus(status, correlationIdOf(request), status === 400 ? 'URL malformada.' : undefined));
};

/**
 * The Fastify server options both apps build on: every route answers the same with or without
 * one trailing slash (PSP SDKs send `/v2/cobv/?inicio=...`), Node's parser errors are answered as
 * problems, and the app's own `frameworkErrors`, if given, are kept. Fastify's bare 503 while
 * closing is replaced by installHttpEdge's. Percent-encoded bytes that are not UTF-8 reach their
 * route as a NUL (rewriteUndecodable), which installStrictInput refuses with the endpoint's problem.
 * A client that trickles its request is cut off after REQUEST_TIMEOUT_MS (Fastify's default is
 * none: the notifier held 200 unauthenticated slow bodies for as long as their senders liked, an
 * audit, 2026-11-27); an HTTPS server passes SERVER_DEADLINES in its own `https` options.
 */
export function withHttpEdge<T extends object>(options: T): T & { clientErrorHandler: typeof answerClientError; return503OnClosing: false; frameworkErrors: FrameworkErrors; rewriteUrl: typeof rewriteUndecodable; connectionTimeout: number } {
  const given = options as { routerOptions?: object; frameworkErrors?: FrameworkErrors; requestTimeout?: number; http?: object; https?: object };
  return {
    ...(given.http || given.https ? {} : { http: SERVER_DEADLINES }),
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionTimeout: CONNECTION_IDLE_MS,
    ...options,
    frameworkErrors: given.frameworkErrors ?? frameworkErrors,
    routerOptions: { ...given.routerOptions, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
    rewriteUrl: rewriteUndecodable,
  };
}

/**
 * The hooks and server listeners of the edge, installed before any other onRequest hook that
 * spends something (rate limit, authentication): refusals while closing, ambiguous headers, and
 * the answers Node would otherwise give bare (417, CONNECT, missing Host). First of all, a URL
 * rewritten for routing is put back as sent.
 */
export function installHttpEdge(fastify: FastifyInstance, limits: { connectionsPerAddress?: number } = {}): void {
  installSentUrl(fastify);
  installConnectionCap(fastify, limits.connectionsPerAddress ?? 0);
  installServerEdge(fastify.server, fastify.initialConfig.bodyLimit);
  installClosingRefusal(fastify);
  installHeaderChecks(fastify);
}
