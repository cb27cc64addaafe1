import { randomBytes } from 'node:crypto';
import type { PixRecebidoMessage } from '@pix/contracts';
import { createResponseValidator } from '@pix/testing';
import { newTxid, validCobV } from './api-harness';

/** The receiver's Pix key in the production test environment (see api-process.ts). */
export const PRODUCTION_KEY = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';

const validator = createResponseValidator();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An endToEndId of the official shape: E + ISPB (8) + yyyyMMddHHmm + 11 letters/digits. */
export const newE2e = () => `E12345678${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}${randomBytes(8).toString('hex').slice(0, 11)}`;

/** A cash-in as a PSP's core publishes it: payer included (it never reaches the webhook). */
export function cashIn(txid: string, chave = PRODUCTION_KEY, valor = '123.45'): PixRecebidoMessage {
  return {
    versao: 1,
    endToEndId: newE2e(),
    txid,
    chave,
    valor,
    horario: new Date().toISOString(),
    infoPagador: 'Pagamento via Kafka',
    pagador: { cpf: '12345678909', nome: 'Francisco da Silva' },
    componentesValor: { original: { valor } },
  };
}

/** The official `Pix` object of a cash-in: what the webhook and GET /pix show. */
export const officialPix = ({ versao: _v, pagador: _p, ...pix }: PixRecebidoMessage) => pix;

/**
 * HTTP to an API process (`base` ends with /v2): every answer is validated against the official
 * contract, like the in-process harness does. `auth`: e.g. an ApiProcess's `headers()`.
 */
export function contractClient(base: string, auth: Record<string, string> = {}) {
  const request = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}${path}`, { method, headers: body === undefined ? auth : { 'content-type': 'application/json', ...auth }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    const parsed = text ? JSON.parse(text) : undefined;
    validator.expectValidResponse({ method, path: path.split('?')[0], status: r.status, contentType: r.headers.get('content-type') ?? undefined, body: text === '' ? '' : parsed });
    return { status: r.status, body: parsed };
  };
  return {
    request,
    /** Creates a charge (201) to `chave` for `original` and returns its txid. */
    async charge(chave = PRODUCTION_KEY, original = '123.45'): Promise<string> {
      const txid = newTxid('kf');
      const res = await request('PUT', `/cobv/${txid}`, validCobV({ chave, valor: { original } }));
      if (res.status !== 201) throw new Error(`PUT /cobv/${txid} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return txid;
    },
    /** Polls GET /cobv/{txid} until CONCLUIDA; returns the charge. */
    async concluded(txid: string, timeoutMs = 30_000): Promise<any> {
      for (const deadline = Date.now() + timeoutMs; ; await sleep(200)) {
        const res = await request('GET', `/cobv/${txid}`);
        if (res.body.status === 'CONCLUIDA') return res.body;
        if (Date.now() > deadline) throw new Error(`cobv ${txid} still ${res.body.status} after ${timeoutMs} ms`);
      }
    },
  };
}

/** Runs `task` over `items` with at most `limit` at a time. */
export async function inPool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i], i);
      }
    }),
  );
  return results;
}
