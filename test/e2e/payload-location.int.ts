import { createHash, createPublicKey, createVerify, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, businessDateOf, isBusinessDay, parseBrCode } from '@pix/domain';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { createCharge, problemTypeUri } from '../support/cobv-expect';

// A payer's bank reads the BR Code, GETs the location, verifies the JWS with the key the `jku`
// (on the location's own host) publishes, and pays `valor.final` for the date it pays. This
// checks all of that from the outside; the signature with node:crypto and the x5c certificate,
// not with the library that signed.

const LOCATION_HOST = 'pix.example.test';
const validator = createResponseValidator();
// Noon in São Paulo on today's date there: "today" for the API is this test's today.
const today = businessDateOf(new Date());
const clock = { now: () => new Date(`${today}T15:00:00.000Z`) };

/** The next business day on or after `date`, Monday to Friday without national holidays. */
const businessDayFrom = (date: string): string => (isBusinessDay(date) ? date : businessDayFrom(addDays(date, 1)));

export interface Fetched {
  status: number;
  contentType: string;
  text: string;
}

/** The location's path (`/qr/v2/cobv/{token}`) read from the BR Code, as a bank reads it. */
export function locationPath(pixCopiaECola: string): { host: string; path: string } {
  const parsed = parseBrCode(pixCopiaECola);
  expect(parsed.crcValid).toBe(true);
  const url = parsed.merchantAccount.get('25')!;
  const slash = url.indexOf('/');
  return { host: url.slice(0, slash), path: url.slice(slash) };
}

async function get(api: RunningApi, pathAndQuery: string): Promise<Fetched> {
  const r = await fetch(`${api.baseUrl}${pathAndQuery}`);
  return { status: r.status, contentType: r.headers.get('content-type') ?? '', text: await r.text() };
}

const b64json = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

/** Verifies a compact JWS with node:crypto against the JWKS the jku names; returns header and payload. */
export function verifyIndependently(jws: string, jwks: { keys: any[] }): { header: any; payload: any } {
  const [h, p, s] = jws.split('.');
  const header = b64json(h);
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  expect(jwk).toBeDefined();
  const cert = new X509Certificate(Buffer.from(jwk.x5c[0], 'base64'));
  // The JWK's own numbers are the certificate's key, and the thumbprints are the certificate's.
  expect(createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' })).toEqual(cert.publicKey.export({ type: 'spki', format: 'der' }));
  expect(header['x5t#S256']).toBe(createHash('sha256').update(cert.raw).digest('base64url'));
  expect(header.x5t).toBe(createHash('sha1').update(cert.raw).digest('base64url'));
  const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(cert.publicKey, Buffer.from(s, 'base64url'));
  expect(ok).toBe(true);
  return { header, payload: b64json(p) };
}

describe('payload locations: what a payer’s bank reads', () => {
  let api: RunningApi;
  let db: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-payload-'));
    db = await createTestDatabase('payload_e2e');
    api = await startApi({ env: { LOCATION_HOST, DATA_DIR: dataDir }, clock, db });
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const jwksOf = async () => {
    const r = await get(api, '/qr/v2/jwks');
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    return JSON.parse(r.text) as { keys: any[] };
  };

  /** GET on the location, checked against the official contract (server "location"). */
  const fetchLocation = async (pixCopiaECola: string, query = '') => {
    const { host, path: p } = locationPath(pixCopiaECola);
    expect(host).toBe(LOCATION_HOST);
    const r = await get(api, `${p}${query}`);
    const result = validator.validateResponse({ method: 'GET', path: p.replace(/^\/qr\/v2/, ''), status: r.status, contentType: r.contentType, body: r.text, server: 'location' });
    if (!result.valid) throw new Error(`GET ${p}${query} → ${r.status} violates the contract:\n${result.errors.join('\n')}\n${r.text.slice(0, 1000)}`);
    return r;
  };

  it('answers a compact JWS (application/jose) of a CobVPayload, signed RS256 with kid, x5t, x5t#S256 and a jku on the location host', async () => {
    const txid = newTxid('pl');
    const due = businessDayFrom(addDays(today, 10));
    const body = validCobV({
      calendario: { dataDeVencimento: due, validadeAposVencimento: 5 },
      valor: { original: '100.00', multa: { modalidade: 1, valorPerc: '5.00' }, juros: { modalidade: 1, valorPerc: '0.10' } },
      infoAdicionais: [{ nome: 'pedido', valor: '42' }],
    });
    const charge = await createCharge(api, txid, body);
    const r = await fetchLocation(charge.pixCopiaECola);
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/jose');
    expect(r.text).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const { header, payload } = verifyIndependently(r.text, await jwksOf());
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWS', jku: `https://${LOCATION_HOST}/qr/v2/jwks` });
    expect(typeof header.kid).toBe('string');
    expect(new URL(header.jku).host).toBe(locationPath(charge.pixCopiaECola).host);
    expect(validator.validateSchema('CobVPayload', payload)).toEqual({ valid: true, errors: [] });
    expect(payload).toMatchObject({
      txid,
      revisao: 0,
      status: 'ATIVA',
      chave: body.chave,
      calendario: { criacao: charge.calendario.criacao, apresentacao: clock.now().toISOString(), dataDeVencimento: due, validadeAposVencimento: 5 },
      devedor: body.devedor,
      recebedor: { nome: 'Empresa de Logística SA', cnpj: '56989000019563', cidade: 'São Paulo', uf: 'SP' },
      solicitacaoPagador: body.solicitacaoPagador,
      infoAdicionais: body.infoAdicionais,
      // Today is before the due date: nothing added.
      valor: { original: '100.00', multa: '0.00', juros: '0.00', abatimento: '0.00', desconto: '0.00', final: '100.00' },
    });
    expect(payload.recebedor).not.toHaveProperty('id');
    expect(payload.recebedor).not.toHaveProperty('chaves');

    // Three days late, a business due date: fine 5.00 plus 3 × 0.10 interest (by hand: 105.30).
    const late = await fetchLocation(charge.pixCopiaECola, `?DPP=${addDays(due, 3)}&codMun=3550308`);
    expect(verifyIndependently(late.text, await jwksOf()).payload.valor).toEqual({ original: '100.00', multa: '5.00', juros: '0.30', abatimento: '0.00', desconto: '0.00', final: '105.30' });
    // On the due date itself: nothing added.
    const onDue = await fetchLocation(charge.pixCopiaECola, `?DPP=${due}`);
    expect(verifyIndependently(onDue.text, await jwksOf()).payload.valor.final).toBe('100.00');
  });

  it('refuses DPP before today, past the validity or malformed, and a malformed codMun, with 400 CobPayloadOperacaoInvalida', async () => {
    const due = businessDayFrom(addDays(today, 3));
    const charge = await createCharge(api, newTxid('pv'), validCobV({ calendario: { dataDeVencimento: due, validadeAposVencimento: 2 } }));
    const cases: [string, string][] = [
      [`?DPP=${addDays(today, -1)}`, 'DPP'],
      [`?DPP=${addDays(due, 12)}`, 'DPP'],
      ['?DPP=2026-02-30', 'DPP'],
      ['?DPP=amanha', 'DPP'],
      [`?DPP=${today}&DPP=${today}`, 'DPP'],
      ['?codMun=355030', 'codMun'],
      ['?codMun=35503081', 'codMun'],
      ['?codMun=abcdefg', 'codMun'],
    ];
    for (const [query, propriedade] of cases) {
      const r = await fetchLocation(charge.pixCopiaECola, query);
      const problem = JSON.parse(r.text);
      expect([query, r.status, r.contentType.split(';')[0], problem.type, problem.violacoes?.[0]?.propriedade]).toEqual([
        query, 400, 'application/problem+json', problemTypeUri('CobPayloadOperacaoInvalida' as never), propriedade,
      ]);
    }
    // The last valid day still answers.
    expect((await fetchLocation(charge.pixCopiaECola, `?DPP=${due}`)).status).toBe(200);
  });

  it('answers 404 CobPayloadNaoEncontrado for an unknown token and for a removed charge, without a token of any kind', async () => {
    const unknown = await get(api, '/qr/v2/cobv/0123456789abcdef0123456789abcdef');
    expect([unknown.status, JSON.parse(unknown.text).type]).toEqual([404, problemTypeUri('CobPayloadNaoEncontrado' as never)]);
    const hostile = await get(api, `/qr/v2/cobv/${encodeURIComponent("x' OR '1'='1")}`);
    expect(hostile.status).toBe(404);
    const txid = newTxid('rm');
    const charge = await createCharge(api, txid, validCobV());
    expect((await fetchLocation(charge.pixCopiaECola)).status).toBe(200);
    expect((await api.request('PATCH', `/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(200);
    const removed = await fetchLocation(charge.pixCopiaECola);
    const problem = JSON.parse(removed.text);
    expect([removed.status, problem.type, problem.title]).toEqual([404, problemTypeUri('CobPayloadNaoEncontrado' as never), 'Cobrança não encontrada.']);
    expect(problem.detail).toMatch(/REMOVIDA_PELO_USUARIO_RECEBEDOR/);
  });

  it('GET /cobv/{txid}/qrcode: a PNG that a QR decoder reads back into exactly pixCopiaECola, with the access rules of GET /cobv/{txid}', async () => {
    const txid = newTxid('qr');
    const charge = await createCharge(api, txid, validCobV());
    // Ours, not the contract's: read with plain fetch (the harness validates against the contract).
    const qrcode = async (t: string, token?: string) => {
      const res = await fetch(`${api.baseUrl}/v2/cobv/${t}/qrcode`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
      return { status: res.status, body: await res.json() };
    };
    const r = await qrcode(txid, await api.tokenFor());
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['imagemQrcode', 'qrcode']);
    expect(r.body.qrcode).toBe(charge.pixCopiaECola);
    const [, base64] = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(r.body.imagemQrcode) ?? [];
    const png = PNG.sync.read(Buffer.from(base64, 'base64'));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(charge.pixCopiaECola);
    // The same rules as GET /cobv/{txid}: unknown txid → CobVNaoEncontrada, no token → 401, no cobv.read → 403.
    expect(await qrcode(newTxid('none'), await api.tokenFor())).toMatchObject({ status: 404, body: { type: problemTypeUri('CobVNaoEncontrada') } });
    expect((await qrcode(txid)).status).toBe(401);
    expect((await qrcode(txid, await api.tokenFor({ scope: 'cobv.write' }))).status).toBe(403);
  });

  it('keeps the local key in DATA_DIR (mode 0600) and serves the same JWKS after a restart', async () => {
    const file = path.join(dataDir, 'payload-signing.pem');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const before = await jwksOf();
    const charge = await createCharge(api, newTxid('rs'), validCobV());
    const jws = (await fetchLocation(charge.pixCopiaECola)).text;
    await api.stop();
    api = await startApi({ env: { LOCATION_HOST, DATA_DIR: dataDir }, clock, db });
    const after = await jwksOf();
    expect(after).toEqual(before);
    // A JWS signed before the restart verifies against the JWKS served after it.
    verifyIndependently(jws, after);
  });
});
