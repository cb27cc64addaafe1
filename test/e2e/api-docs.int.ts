import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse } from 'yaml';
import { PIX_SCOPES } from '@pix/domain';
import { startApi, type RunningApi } from '../support/api-harness';

// The API's own contract: GET /openapi.json lists exactly the routes the running server serves
// (local mode serves more: sandbox, in-process notifier) and is valid OpenAPI 3; /docs renders it
// in a real browser from files this server serves itself.

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const CHROMIUM = '/usr/bin/chromium';

/** Fastify's own route tree (printRoutes), flattened: an enumeration independent of the server's. */
function routesOf(api: RunningApi): string[] {
  const tree = api.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method} ${stack.join('').replace(/:([A-Za-z0-9_]+)/g, '{}')}`);
  }
  return routes.sort();
}

const operationsOf = (doc: any) =>
  Object.entries<any>(doc.paths)
    .flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`))
    .sort();

describe.each(['local', 'production'])('the API document in %s mode', (mode) => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { MODE: mode } });
  });
  afterAll(() => api?.stop());

  it('describes every served route and serves every operation it describes', async () => {
    const doc: any = await (await fetch(`${api.baseUrl}/openapi.json`)).json();
    const served = routesOf(api);
    expect(served.length).toBeGreaterThan(15);
    expect(operationsOf(doc)).toEqual(served);
    expect(served).toContain('PUT /v2/cobv/{}');
    expect(served).toContain('POST /oauth/token');
    if (mode === 'local') expect(served).toContain('POST /sandbox/cash-in');
    else expect(served).not.toContain('POST /sandbox/cash-in');
  });

  it('is valid OpenAPI 3, with the contract readings applied, as JSON and as YAML alike', async () => {
    const doc: any = await (await fetch(`${api.baseUrl}/openapi.json`)).json();
    const yaml = await fetch(`${api.baseUrl}/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('yaml');
    expect(parse(await yaml.text())).toEqual(doc);
    expect(doc.openapi).toMatch(/^3\.0\./);
    // Scheme-less locations (ADR 4), patterns without slashes, WebhookCompleto with chave.
    expect(doc.components.schemas.PayloadLocation.properties.location.format).toBeUndefined();
    expect(JSON.stringify(doc)).not.toMatch(/"pattern":"\/\^/);
    expect(doc.components.schemas.WebhookCompleto.required).toContain('chave');
    await SwaggerParser.validate(structuredClone(doc));
  });

  it("offers in its OAuth2 scheme only the scopes of the served operations, which the client is granted (Swagger UI's Authorize, every box ticked)", async () => {
    const doc: any = await (await fetch(`${api.baseUrl}/openapi.json`)).json();
    const used = new Set<string>();
    for (const item of Object.values<any>(doc.paths)) for (const m of METHODS) for (const r of item[m]?.security ?? []) for (const s of r.OAuth2 ?? []) used.add(s);
    const offered = Object.keys(doc.components.securitySchemes.OAuth2.flows.clientCredentials.scopes);
    expect(offered.sort()).toEqual([...used].sort());
    expect(offered).toContain('cobv.write');
    expect(offered).not.toContain('cob.write');
    // What the sandbox client (local) or a registered client with every scope gets.
    expect(PIX_SCOPES).toEqual(expect.arrayContaining(offered));
    const token = await fetch(`${api.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: api.client.clientId, client_secret: api.client.secret, scope: offered.join(' ') }),
    });
    expect(token.status).toBe(200);
  });
});

describe('/docs in a browser', () => {
  let api: RunningApi;
  beforeAll(async () => {
    ensureChromium();
    api = await startApi();
  }, 600_000);
  afterAll(() => api?.stop());

  it('renders Swagger UI from files the server serves itself (no CDN), with the operations listed', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(api.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${api.baseUrl}/docs`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      expect(await page.locator('.opblock').count()).toBeGreaterThan(15);
      expect(await page.textContent('.info .title')).toContain('API Pix deste servidor');
      expect(await page.locator('.opblock-summary-path', { hasText: '/v2/cobv/{txid}' }).count()).toBeGreaterThan(0);
      const shot = path.join(__dirname, '../../.cache/docs.png');
      mkdirSync(path.dirname(shot), { recursive: true });
      await page.screenshot({ path: shot });
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});

/** Debian's chromium, installed when missing (as root: the suite provisions a fresh machine). */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'pipe', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed: ${r.stderr}`);
  }
}
