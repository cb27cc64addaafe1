import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { applyContractReadings } from './contract-readings';
import { OWN_ENDPOINTS, OWN_SCHEMAS } from './own-endpoints';
import type { ServedRoute } from './served-routes';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The vendored official contract, found from the source tree or from dist/ alike. */
export function officialContractPath(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'libs/contracts/spec/bcb-api-pix-2.9.0.openapi.yaml');
    try {
      readFileSync(candidate, { flag: 'r' }).subarray(0, 1);
      return candidate;
    } catch {
      /* keep looking upwards */
    }
  }
  throw new Error('libs/contracts/spec/bcb-api-pix-2.9.0.openapi.yaml not found above the API code');
}

/** `/v2/cobv/:txid` and `/v2/cobv/{txid}` alike become `/v2/cobv/{}`: parameter names may differ. */
export const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url.replace(/:[A-Za-z0-9_]+|\{[^}]+\}/g, '{}')}`;

/**
 * The document this server answers at /openapi.json: the official contract restricted to the
 * operations it serves (paths under the base path; payload locations under the location host's
 * `/qr/v2`), with the project's contract readings applied, plus its own endpoints. Only served
 * operations appear, so local mode (sandbox, in-process notifier) documents more than production.
 */
export function buildApiDocument(served: ServedRoute[], options: { basePath: string; locationBasePath?: string }): any {
  const contract = parse(readFileSync(officialContractPath(), 'utf8'));
  applyContractReadings(contract);
  const servedKeys = new Set(served.map((r) => routeKey(r.method, r.url)));
  const paths: Record<string, any> = {};
  for (const [specPath, item] of Object.entries<any>(contract.paths)) {
    // Payload locations carry their own `servers` (the location host): here they live under /qr/v2.
    const atLocationHost = METHODS.some((m) => item[m]?.servers);
    const full = `${atLocationHost ? (options.locationBasePath ?? '/qr/v2') : options.basePath}${specPath}`;
    const operations = METHODS.filter((m) => item[m] && servedKeys.has(routeKey(m, full)));
    if (operations.length === 0) continue;
    const { servers: _servers, ...rest } = item;
    paths[full] = Object.fromEntries(Object.entries(rest).filter(([k]) => !METHODS.includes(k) || operations.includes(k)));
    for (const m of operations) delete paths[full][m].servers;
  }
  for (const [ownPath, item] of Object.entries(OWN_ENDPOINTS(options.basePath))) {
    const operations = Object.entries(item).filter(([m]) => servedKeys.has(routeKey(m, ownPath)));
    if (operations.length > 0) paths[ownPath] = { ...paths[ownPath], ...Object.fromEntries(operations) };
  }
  const usedTags = new Set(Object.values(paths).flatMap((item: any) => METHODS.flatMap((m) => item[m]?.tags ?? [])));
  return {
    ...contract,
    info: {
      ...contract.info,
      title: 'API Pix deste servidor (cobv, lotecobv, webhooks)',
      description:
        'O contrato oficial do BCB (API Pix 2.9.0, Apache-2.0) restrito às operações que este servidor atende, com as leituras do projeto ' +
        '(ADR 4: location sem esquema, padrões sem barras, WebhookCompleto com chave), e os endpoints próprios (token, sandbox, operação).',
    },
    servers: [{ url: '/', description: 'Este servidor' }],
    tags: [...(contract.tags ?? []).filter((t: any) => usedTags.has(t.name)), { name: 'Operação', description: 'Endpoints próprios deste servidor: token, saúde, métricas, documentação, sandbox e notificações.' }],
    paths,
    components: {
      ...contract.components,
      schemas: { ...contract.components.schemas, ...OWN_SCHEMAS },
      securitySchemes: { ...contract.components.securitySchemes, OAuth2: oauthHere(contract.components.securitySchemes.OAuth2, scopesOf(paths)), operatorToken: { type: 'http', scheme: 'bearer', description: 'NOTIFIER_OPERATOR_TOKEN do notificador (/notifier/...).' } },
    },
  };
}

/** Every OAuth2 scope the documented operations ask for. */
export function scopesOf(paths: Record<string, any>): Set<string> {
  const scopes = new Set<string>();
  for (const item of Object.values(paths))
    for (const m of METHODS) for (const requirement of item[m]?.security ?? []) for (const scope of requirement.OAuth2 ?? []) scopes.add(scope);
  return scopes;
}

/**
 * The contract's OAuth2 scheme with its token URL on this server and only the scopes of the
 * operations served: Swagger UI's "Authorize" with every box ticked asked for the contract's
 * scopes of endpoints not served here (cob.*, rec.*, ...), which no client is granted (invalid_scope).
 */
function oauthHere(scheme: any, served: Set<string>): any {
  const flow = scheme?.flows?.clientCredentials;
  if (!flow) return scheme;
  const scopes = Object.fromEntries(Object.entries(flow.scopes ?? {}).filter(([scope]) => served.has(scope)));
  return { ...scheme, flows: { ...scheme.flows, clientCredentials: { ...flow, tokenUrl: '/oauth/token', scopes } } };
}
