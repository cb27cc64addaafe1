// Assertions and small builders shared by the cobv HTTP suites. They only read answers the
// harness has already checked against the official contract; they never loosen that check.
import { cnpjWithCheckDigits, cpfWithCheckDigits } from '@pix/domain';
import type { TipoErro } from '@pix/contracts';
import type { ApiResponse, RunningApi } from './api-harness';

export type { TipoErro } from '@pix/contracts';

export const problemTypeUri = (tipo: TipoErro) => `https://pix.bcb.gov.br/api/v2/error/${tipo}`;

/** A wide window that contains every charge created by a test run. */
export const WHOLE_TIME = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';

/** The `propriedade` of every violation of a problem answer. */
export const propriedadesOf = (res: ApiResponse): string[] =>
  (res.body?.violacoes ?? []).map((v: { propriedade?: string }) => v.propriedade ?? '');

/**
 * The answer is the given problem: exact status, exact `type`, problem media type, and the body's
 * own `status` agrees. With `propriedade`, some violation names that property or a member of it
 * (`cobv.valor.multa` is satisfied by `cobv.valor.multa` and `cobv.valor.multa.modalidade`,
 * never by `cobv.valor` or `cobv.valor.multaX`).
 */
export function expectProblem(res: ApiResponse, status: number, tipo: TipoErro, propriedade?: string | string[]): void {
  const seen = { status: res.status, type: res.body?.type, bodyStatus: res.body?.status };
  expect(seen).toEqual({ status, type: problemTypeUri(tipo), bodyStatus: status });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
  if (propriedade === undefined) return;
  const wanted = Array.isArray(propriedade) ? propriedade : [propriedade];
  const names = propriedadesOf(res);
  const hit = names.some((n) => wanted.some((w) => n === w || n.startsWith(`${w}.`) || n.startsWith(`${w}[`)));
  if (!hit) throw new Error(`expected a violation naming ${wanted.join(' or ')}, got [${names.join(', ')}]\n${res.text.slice(0, 1500)}`);
}

/** Nothing was stored under `txid`: GET answers 404 CobVNaoEncontrada. */
export async function expectNoCharge(api: RunningApi, txid: string): Promise<void> {
  expectProblem(await api.request('GET', `/cobv/${encodeURIComponent(txid)}`), 404, 'CobVNaoEncontrada');
}

/** The charge as GET shows it now (fails unless 200). */
export async function readCharge(api: RunningApi, txid: string, revisao?: number): Promise<any> {
  const res = await api.request('GET', `/cobv/${txid}${revisao === undefined ? '' : `?revisao=${revisao}`}`);
  if (res.status !== 200) throw new Error(`GET /cobv/${txid} → ${res.status}: ${res.text.slice(0, 800)}`);
  return res.body;
}

/** Creates a charge (fails unless 201) and returns the answer's body. */
export async function createCharge(api: RunningApi, txid: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.request('PUT', `/cobv/${txid}`, body);
  if (res.status !== 201) throw new Error(`PUT /cobv/${txid} → ${res.status}: ${res.text.slice(0, 800)}`);
  return res.body;
}

/** `YYYY-MM-DD`, `days` from today (UTC); small offsets may land on Brazil's previous day. */
export const dateInDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A valid CPF (check digits right) derived from `n`. */
export const cpfFrom = (n: number) => cpfWithCheckDigits(String(100_000_000 + (n % 800_000_000)).slice(0, 9));

/** A valid numeric CNPJ derived from `n`. */
export const cnpjFrom = (n: number) => cnpjWithCheckDigits(`${String(10_000_000 + (n % 80_000_000))}0001`);

/** Money string "12.34" for `cents`. */
export const money = (cents: number) => (cents / 100).toFixed(2);
