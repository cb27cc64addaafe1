/**
 * Item 4, batches: one PUT /v2/lotecobv/{id} of 1000 valid requests (new txids), timed from its
 * 202 until no request is EM_PROCESSAMENTO, against the same body sent as sequential
 * PUT /v2/cobv/{txid} at concurrency 1. Progress is read from the requests read model
 * (rm_lotecobv_solicitacao, what GET /v2/lotecobv/{id} serves) by a count on the bench's own
 * connection every POLL_MS, so the API's HTTP side is not touched while it works.
 */
import type { Pool } from 'pg';
import { tenantKey } from '@pix/domain';
import { apiHeaders } from './auth';
import { putBody, RECEBEDOR, txidFactory } from './fixtures';
import { summarize, type Point } from './load';
import { fmtMs, fmtPoint, fmtRate, type Row } from './report';

export const BATCH_SIZE = 1000;
export const SEQUENTIAL_SIZE = Number(process.env.BENCH_SEQUENTIAL_PUTS ?? 300);
export const POLL_MS = 10;
const TIMEOUT_MS = 180_000;

export interface BatchResult {
  /** Charges decided per second, from the 202 to the last decision visible in the read model. */
  rate: number;
  /** From the 202 to no request EM_PROCESSAMENTO. */
  decidedMs: number;
  /** The PUT itself (request sent → 202 read). */
  acceptMs: number;
  criadas: number;
  negadas: number;
  polls: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sequential PUT /v2/cobv/{txid}, one in flight, `count` new txids, the same body (201 each). */
export async function sequentialPuts(apiUrl: string, prefix: string, count = SEQUENTIAL_SIZE): Promise<Point> {
  const next = txidFactory(prefix);
  const body = JSON.stringify(putBody());
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const r = await fetch(`${apiUrl}/v2/cobv/${next()}`, { method: 'PUT', headers: apiHeaders({ 'content-type': 'application/json' }), body });
    await r.arrayBuffer();
    if (r.status === 201) latencies.push(performance.now() - t);
    else failures++;
  }
  return summarize(latencies, performance.now() - started, failures);
}

export async function batchRun(apiUrl: string, db: Pool, loteId: string, prefix: string, size = BATCH_SIZE): Promise<BatchResult> {
  const next = txidFactory(prefix);
  const cobsv = Array.from({ length: size }, () => ({ txid: next(), ...putBody() }));
  const body = JSON.stringify({ descricao: 'Bench: lote de cobranças', cobsv });
  const sent = performance.now();
  const r = await fetch(`${apiUrl}/v2/lotecobv/${loteId}`, { method: 'PUT', headers: apiHeaders({ 'content-type': 'application/json' }), body });
  const text = await r.text();
  const accepted = performance.now();
  if (r.status !== 202) throw new Error(`PUT /v2/lotecobv/${loteId} answered ${r.status}: ${text.slice(0, 500)}`);
  let polls = 0;
  for (;;) {
    const { rows } = await db.query<{ total: number; pending: number; criadas: number; negadas: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'EM_PROCESSAMENTO')::int AS pending,
              count(*) FILTER (WHERE status = 'CRIADA')::int AS criadas, count(*) FILTER (WHERE status = 'NEGADA')::int AS negadas
         FROM rm_lotecobv_solicitacao WHERE lote_id = $1`,
      [tenantKey(RECEBEDOR.id, loteId)],
    );
    polls++;
    const c = rows[0];
    const now = performance.now();
    if (c.total === size && c.pending === 0) {
      const decidedMs = now - accepted;
      return { rate: (size * 1000) / decidedMs, decidedMs, acceptMs: accepted - sent, criadas: c.criadas, negadas: c.negadas, polls };
    }
    if (now - accepted > TIMEOUT_MS) throw new Error(`lotecobv ${loteId}: ${c.pending} of ${c.total} still EM_PROCESSAMENTO after ${TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** After the timing: what a client sees through the API (every request decided, none pending). */
export async function checkThroughApi(apiUrl: string, loteId: string): Promise<string> {
  const body = (await (await fetch(`${apiUrl}/v2/lotecobv/${loteId}`, { headers: apiHeaders() })).json()) as { cobsv?: { status: string }[] };
  const count = (s: string) => (body.cobsv ?? []).filter((c) => c.status === s).length;
  return `GET /v2/lotecobv/${loteId} afterwards: ${count('CRIADA')} CRIADA, ${count('NEGADA')} NEGADA, ${count('EM_PROCESSAMENTO')} EM_PROCESSAMENTO`;
}

/** Item 4's row: sequential PUTs first, then the batch, on the API of items 1–3 (seeded database). */
export async function batchRows(apiUrl: string, db: Pool, tag: string, log: (m: string) => void): Promise<Row[]> {
  log(`item 4: ${SEQUENTIAL_SIZE} sequential PUT /v2/cobv/{txid}, then PUT /v2/lotecobv of ${BATCH_SIZE}`);
  const seq = await sequentialPuts(apiUrl, `s${tag}x`);
  const loteId = String(Date.now() % 1_000_000_000);
  const b = await batchRun(apiUrl, db, loteId, `l${tag}x`);
  log(`item 4: ${await checkThroughApi(apiUrl, loteId)}; ${b.polls} polls`);
  const outcome = `${b.criadas.toLocaleString('en-US')} CRIADA${b.negadas ? `, **${b.negadas} NEGADA**` : ''}`;
  return [
    {
      item: '4',
      what: `Batch \`PUT /v2/lotecobv/{id}\`, ${BATCH_SIZE.toLocaleString('en-US')} valid requests (new txids): 202 → every request decided (read model polled every ${POLL_MS} ms)`,
      result: `${fmtRate(b.rate, 'charges/s')} (${(b.decidedMs / 1000).toFixed(2)} s after the 202, which took ${fmtMs(b.acceptMs)} ms; ${outcome})`,
      ceiling: `sequential \`PUT /v2/cobv/{txid}\`, 1 client, ${SEQUENTIAL_SIZE} requests: ${fmtPoint(seq, 'charges/s')}`,
      ratio: b.rate / seq.rate,
    },
  ];
}
