import type { FastifyInstance } from 'fastify';

/** A route as Fastify registered it: method and URL template (`/v2/cobv/:txid`). */
export interface ServedRoute {
  method: string;
  url: string;
}

/**
 * Records every route as it is registered (call before the app is initialised), so the served
 * document and its test work from what the server really answers. HEAD routes Fastify derives
 * from GET are left out: they are the GET's.
 */
export function collectServedRoutes(fastify: FastifyInstance): ServedRoute[] {
  const routes: ServedRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
  });
  return routes;
}
