import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildProblema } from '@pix/contracts';
import { correlationIdOf } from '@pix/observability';
import { stringify } from 'yaml';
import type { AppConfig } from '../config/config';
import { buildApiDocument } from './openapi-document';
import type { ServedRoute } from './served-routes';

/** Swagger UI's own files, from the pinned npm package (never a CDN). */
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
// The page loads only its own files; Swagger UI styles some elements inline.
const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>API Pix: documentação</title><link rel="icon" href="/docs/favicon-32x32.png"><link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/swagger-ui-bundle.js"></script><script src="/docs/swagger-ui-standalone-preset.js"></script><script src="/docs/init.js"></script></body>
</html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', validatorUrl: null });`;

/**
 * GET /openapi.json and /openapi.yaml (the document of what this server serves, built once the
 * routes are known) and /docs (Swagger UI). Open, like the contract itself.
 */
export function installApiDocs(fastify: FastifyInstance, served: ServedRoute[], config: AppConfig): void {
  const uiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  let json: string | undefined;
  let yaml: string | undefined;
  const document = () => {
    json ??= JSON.stringify(buildApiDocument(served, { basePath: config.basePath }));
    return json;
  };
  fastify.get('/openapi.json', async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(document()));
  fastify.get('/openapi.yaml', async (_request, reply) => {
    yaml ??= stringify(JSON.parse(document()), { aliasDuplicateObjects: false });
    return reply.header('content-type', 'application/yaml; charset=utf-8').send(yaml);
  });
  fastify.get('/docs', async (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(PAGE));
  fastify.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const { file } = request.params;
    if (file === 'init.js') return reply.header('content-type', 'text/javascript; charset=utf-8').send(INIT);
    const type = Object.prototype.hasOwnProperty.call(UI_FILES, file) ? UI_FILES[file] : undefined;
    if (!type) return reply.status(404).header('content-type', 'application/problem+json; charset=utf-8').send(JSON.stringify(buildProblema('NaoEncontrado', { correlationId: correlationIdOf(request) })));
    return reply.header('content-type', type).send(readFileSync(path.join(uiDir, file)));
  });
}
