import { Pool } from 'pg';
import { findCobV, listCobV, type CobVListFilter } from '@pix/read-models';
import { apiHeaders } from './auth';
import { putBody, RECEBEDOR, txidFactory } from './fixtures';
import { closedLoop, httpLoad, type Durations, type Point } from './load';

/**
 * PUT /v2/cobv/{txid} with a new txid per request and the same valid body (201 expected).
 * Txids start with `<prefix>w` during the warm-up and `<prefix>m` during the measured run.
 */
export function putLoad(url: string, connections: number, txidPrefix: string, d: Durations): Promise<Point> {
  let next = txidFactory(`${txidPrefix}w`);
  const body = JSON.stringify(putBody());
  const onMeasureStart = () => {
    next = txidFactory(`${txidPrefix}m`);
  };
  return httpLoad({ url, connections, method: 'PUT', path: () => `/v2/cobv/${next()}`, body, expectStatus: 201, onMeasureStart }, d);
}

/**
 * Untimed PUTs at 16 clients against each process in turn, before the first measured point: a
 * process just started runs its first thousands of requests unoptimised (three 1-client points
 * in a row on one API: 630, 826, 908 req/s), and the ceilings' own code paths are tiny and warm
 * within their warm-up. Measured points then compare steady states.
 */
export async function warmPutPaths(urls: string[], txidPrefix: string, ms: number): Promise<void> {
  for (const [i, url] of urls.entries()) await putLoad(url, 16, `${txidPrefix}${i}`, { warmupMs: 0, measureMs: ms });
}

/** GET /v2/cobv/{txid} over random seeded charges (200 expected). */
export function getLoad(url: string, connections: number, txids: string[], d: Durations): Promise<Point> {
  const pick = () => txids[Math.floor(Math.random() * txids.length)];
  return httpLoad({ url, connections, method: 'GET', path: () => `/v2/cobv/${pick()}`, expectStatus: 200 }, d);
}

/** Storage side of GET by txid: findCobV (the handler's own query) straight on a pool. */
export async function rawGetCeiling(dbUrl: string, connections: number, txids: string[], d: Durations): Promise<Point> {
  const pool = new Pool({ connectionString: dbUrl, max: connections });
  try {
    return await closedLoop(connections, d, async () => {
      if (!(await findCobV(pool, RECEBEDOR.id, txids[Math.floor(Math.random() * txids.length)]))) throw new Error('seeded charge not found');
    });
  } finally {
    await pool.end();
  }
}

export interface ListWindow {
  label: string;
  inicio: Date;
  fim: Date;
}

/** GET /v2/cobv?inicio&fim&paginacao.itensPorPagina=100, first page (200 expected). */
export function listLoad(url: string, connections: number, w: ListWindow, d: Durations): Promise<Point> {
  const path = `/v2/cobv?inicio=${w.inicio.toISOString()}&fim=${w.fim.toISOString()}&paginacao.itensPorPagina=100`;
  return httpLoad({ url, connections, method: 'GET', path: () => path, expectStatus: 200 }, d);
}

/** Storage side of the list: listCobV (its count and page queries) straight on a pool. */
export async function rawListCeiling(dbUrl: string, connections: number, w: ListWindow, d: Durations): Promise<Point> {
  const pool = new Pool({ connectionString: dbUrl, max: connections });
  const filter: CobVListFilter = { inicio: w.inicio, fim: w.fim, paginaAtual: 0, itensPorPagina: 100 };
  try {
    return await closedLoop(connections, d, async () => {
      const { rows } = await listCobV(pool, RECEBEDOR.id, filter);
      if (rows.length !== 100) throw new Error(`expected a full page, got ${rows.length}`);
    });
  } finally {
    await pool.end();
  }
}

/** One real request, for the bare server's bodies and as a smoke check. */
export async function capture(url: string, method: 'GET' | 'PUT', path: string, body?: string): Promise<string> {
  const response = await fetch(`${url}${path}`, { method, body, headers: apiHeaders(body ? { 'content-type': 'application/json' } : {}) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text;
}
