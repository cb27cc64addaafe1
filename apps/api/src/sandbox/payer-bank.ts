import { DomainError, isValidIsoDate, parseBrCode, parseMoney, PIX_GUI } from '@pix/domain';
import { compactVerify, createRemoteJWKSet, decodeProtectedHeader } from 'jose';

/** What the sandbox payer learns from a payload location, as a payer's bank would. */
export interface PaidPayload {
  txid: string;
  chave: string;
  status: string;
  valor: Record<string, string>;
  /** valor.final in cents. */
  final: number;
}

export interface PayerBankOptions {
  /** The location host this server signs for (LOCATION_HOST): the only one the sandbox reaches. */
  locationHost: string;
  /** Where that host is reached over HTTP (local mode serves plain HTTP), e.g. http://127.0.0.1:8080. */
  fetchBase: string;
}

const refuse = (razao: string, propriedade: string) => new DomainError('CobVOperacaoInvalida', razao, [{ razao, propriedade }]);
const TIMEOUT_MS = 10_000;

/**
 * Reads a charge like a payer's bank: the BR Code (TLV, CRC, the Pix GUI and its location URL),
 * GET on the location with `DPP`, the JWS verified against the JWKS its `jku` names (which must
 * be on the location's own host), then the payload's amount. Every refusal is a problem naming
 * the field it comes from (`propriedade`: the BR Code's, or `data` for the payment date).
 */
export async function readChargeLikeABank(pixCopiaECola: string, data: string | undefined, propriedade: string, options: PayerBankOptions): Promise<PaidPayload> {
  const location = locationOf(pixCopiaECola, propriedade);
  const host = location.slice(0, location.indexOf('/'));
  if (host.toLowerCase() !== options.locationHost.toLowerCase())
    throw refuse(`A location do BR Code (${host}) não é deste servidor (${options.locationHost}): o pagador do sandbox só lê as locations que este servidor assina.`, propriedade);
  const url = new URL(`${options.fetchBase}${location.slice(host.length)}`);
  if (data !== undefined) url.searchParams.set('DPP', data);
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  const body = await response.text();
  if (response.status !== 200) {
    const detail = problemDetail(body) ?? `HTTP ${response.status}`;
    // A 400 from the location is about DPP (or codMun, which we do not send): the payment date.
    throw refuse(`A location recusou a leitura: ${detail}`, response.status === 400 && data !== undefined ? 'data' : propriedade);
  }
  if (!/^application\/jose\s*(;|$)/i.test(response.headers.get('content-type') ?? '')) throw refuse('A location não respondeu um JWS (application/jose).', propriedade);
  const payload = await verified(body.trim(), host, options, propriedade);
  if (payload.status !== 'ATIVA') throw refuse(`A cobrança está ${payload.status}: não pode ser paga.`, propriedade);
  const final = parseMoney(payload.valor?.final);
  if (final === null || final === 0) throw refuse('O payload não traz um valor.final que se possa pagar.', propriedade);
  return { ...payload, final };
}

/** data, when given: a YYYY-MM-DD date (the location judges whether it is within validity). */
export function checkPaymentDate(data: unknown): string | undefined {
  if (data === undefined) return undefined;
  if (typeof data !== 'string' || !isValidIsoDate(data)) throw refuse('data deve ser uma data YYYY-MM-DD (a data do pagamento).', 'data');
  return data;
}

function locationOf(pixCopiaECola: string, propriedade: string): string {
  let parsed: ReturnType<typeof parseBrCode>;
  try {
    parsed = parseBrCode(pixCopiaECola);
  } catch (error) {
    throw refuse(`pixCopiaECola não é um BR Code legível: ${(error as Error).message}.`, propriedade);
  }
  if (!parsed.crcValid) throw refuse('pixCopiaECola tem CRC16 (campo 63) inválido.', propriedade);
  const location = parsed.merchantAccount.get('25');
  if (parsed.merchantAccount.get('00')?.toLowerCase() !== PIX_GUI || !location || !location.includes('/') || location.includes('://'))
    throw refuse('pixCopiaECola não é um BR Code dinâmico de Pix (campo 26 com GUI br.gov.bcb.pix e a URL da location no subcampo 25).', propriedade);
  return location;
}

async function verified(jws: string, host: string, options: PayerBankOptions, propriedade: string): Promise<Omit<PaidPayload, 'final'>> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw refuse('A location não respondeu um JWS compacto legível.', propriedade);
  }
  const jku = typeof header.jku === 'string' && URL.canParse(header.jku) ? new URL(header.jku) : undefined;
  // The key must come from the location's own host, over https as the header names it.
  if (!jku || jku.protocol !== 'https:' || jku.host.toLowerCase() !== host.toLowerCase())
    throw refuse(`O jku do JWS (${String(header.jku)}) não é uma URL https no host da location (${host}).`, propriedade);
  if (header.alg !== 'RS256' && header.alg !== 'PS256') throw refuse(`Algoritmo de assinatura não aceito: ${String(header.alg)}.`, propriedade);
  const jwks = createRemoteJWKSet(new URL(`${options.fetchBase}${jku.pathname}`), { timeoutDuration: TIMEOUT_MS, cooldownDuration: 0 });
  try {
    const { payload } = await compactVerify(jws, jwks, { algorithms: ['RS256', 'PS256'] });
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch (error) {
    throw refuse(`A assinatura do JWS não confere com as chaves publicadas em ${jku.href}: ${(error as Error).message}.`, propriedade);
  }
}

function problemDetail(body: string): string | undefined {
  try {
    const problem = JSON.parse(body) as { detail?: unknown; violacoes?: { razao?: unknown }[] };
    const razao = problem.violacoes?.[0]?.razao;
    return typeof razao === 'string' ? razao : typeof problem.detail === 'string' ? problem.detail : undefined;
  } catch {
    return undefined;
  }
}
