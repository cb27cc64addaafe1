import { createHash, createPublicKey, createVerify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, buildDynamicBrCode, businessDateOf, calendarFor, isBusinessDay, parseBrCode } from '@pix/domain';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { provisionAccess } from '../support/api-process';
import { createCharge, problemTypeUri } from '../support/cobv-expect';
import { makePayloadKeyFiles } from '../../apps/api/src/config/payload-keys.fixture';

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
// A due date whose next day is a business day in the city of São Paulo: fines start the day after.
const SAO_PAULO = calendarFor('3550308');
const dueFollowedByBusinessDay = (date: string): string =>
  isBusinessDay(date, SAO_PAULO) && isBusinessDay(addDays(date, 1), SAO_PAULO) ? date : dueFollowedByBusinessDay(addDays(date, 1));

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
    const due = dueFollowedByBusinessDay(addDays(today, 10));
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

    // Three days late (fines start the business day after the due date): fine 5.00 plus 3 × 0.10
    // interest (by hand: 105.30).
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

  it('refuses a control character or bytes that are not UTF-8 in any query parameter with its own CobPayloadOperacaoInvalida, naming it; such a token is CobPayloadNaoEncontrado', async () => {
    const charge = await createCharge(api, newTxid('pc'), validCobV());
    const cases: [string, string][] = [
      ['?DPP=%00', 'DPP'],
      ['?codMun=%00', 'codMun'],
      ['?DPP=2030-01-01%0A', 'DPP'],
      ['?outro=%1B', 'outro'],
      ['?DPP=%FF', 'DPP'],
      ['?codMun=%C3%28', 'codMun'],
      ['?outro=%ED%A0%80', 'outro'],
      ['?%FF=1', '?'],
      // A malformed escape goes the same way.
      ['?DPP=%zz', 'DPP'],
      ['?codMun=%', 'codMun'],
    ];
    for (const [query, propriedade] of cases) {
      const r = await fetchLocation(charge.pixCopiaECola, query);
      const problem = JSON.parse(r.text);
      expect([query, r.status, problem.type, problem.violacoes?.[0]?.propriedade]).toEqual([query, 400, problemTypeUri('CobPayloadOperacaoInvalida' as never), propriedade]);
    }
    for (const token of ['%FF', '%00', 'a%C3%28', '%zz', 'a%']) {
      const r = await get(api, `/qr/v2/cobv/${token}`);
      expect([token, r.status, JSON.parse(r.text).type]).toEqual([token, 404, problemTypeUri('CobPayloadNaoEncontrado' as never)]);
    }
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
      return { status: res.status, body: (await res.json()) as any };
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
    // Another receiver's client: the charge is not there for it (same txid space, other tenant).
    const other = { clientId: 'qr-outra-loja', secret: 'qr-outra-loja-secret-0123456789' };
    await provisionAccess(api.db.url, { receiver: { id: 'qr-outra', nome: 'Outra Loja Ltda', cnpj: '11222333000181', logradouro: 'Rua B, 2', cidade: 'Recife', uf: 'PE', cep: '50000000' }, chaves: ['financeiro@qr-outra.example'], client: other });
    expect(await qrcode(txid, await api.tokenFor(other))).toMatchObject({ status: 404, body: { type: problemTypeUri('CobVNaoEncontrada') } });
    // Removed: nothing to pay, so no QR code (its payload location answers 404 too).
    expect((await api.request('PATCH', `/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(200);
    const removed = await qrcode(txid, await api.tokenFor());
    expect([removed.status, removed.body.type, removed.body.violacoes]).toEqual([
      400,
      problemTypeUri('CobVOperacaoInvalida'),
      [{ razao: 'Só uma cobrança ATIVA tem QR Code; esta está REMOVIDA_PELO_USUARIO_RECEBEDOR.', propriedade: 'cobv.status' }],
    ]);
  });

  describe('the sandbox payer pays like a bank', () => {
    const pay = async (body: Record<string, unknown>, on: RunningApi = api) => {
      const r = await fetch(`${on.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const concluded = async (txid: string) => {
      for (let i = 0; i < 50; i++) {
        const r = await api.request('GET', `/cobv/${txid}`);
        if (r.body.status === 'CONCLUIDA') return r.body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${txid} was not concluded`);
    };
    const refusal = (r: { status: number; body: any }) => [r.status, r.body.type, r.body.violacoes?.[0]?.propriedade];

    it('pays valor.final of the signed payload for the date asked ({pixCopiaECola, data}), and the charge is concluded with it', async () => {
      const due = businessDayFrom(addDays(today, 5));
      const valor = { original: '250.00', multa: { modalidade: 1, valorPerc: '5.00' }, juros: { modalidade: 1, valorPerc: '1.00' }, abatimento: { modalidade: 1, valorPerc: '10.00' } };
      const txid = newTxid('pb');
      const charge = await createCharge(api, txid, validCobV({ valor, calendario: { dataDeVencimento: due, validadeAposVencimento: 10 } }));
      const data = addDays(due, 4);
      const payload = verifyIndependently((await fetchLocation(charge.pixCopiaECola, `?DPP=${data}`)).text, await jwksOf()).payload;
      const paid = await pay({ pixCopiaECola: charge.pixCopiaECola, data });
      expect(paid.status).toBe(202);
      expect(paid.body).toMatchObject({ txid, chave: charge.chave, valor: payload.valor.final });
      expect(paid.body.componentesValor).toEqual({ original: { valor: '250.00' }, multa: { valor: payload.valor.multa }, juros: { valor: payload.valor.juros }, abatimento: { valor: '10.00' } });
      // By hand: 250.00 − 10.00 rebate + 5.00 fine + 4 days × 1.00 interest, late on a business due date.
      expect(payload.valor).toMatchObject({ multa: '5.00', juros: '4.00', final: '249.00' });
      expect((await concluded(txid)).pix[0].valor).toBe('249.00');
      // Paid: neither form pays it again.
      expect(refusal(await pay({ pixCopiaECola: charge.pixCopiaECola }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
      expect(refusal(await pay({ txid }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'txid']);
    });

    it('pays by {txid, data} through the same location', async () => {
      const due = businessDayFrom(addDays(today, 2));
      const txid = newTxid('pt');
      await createCharge(api, txid, validCobV({ valor: { original: '80.00', multa: { modalidade: 1, valorPerc: '3.50' } }, calendario: { dataDeVencimento: due, validadeAposVencimento: 30 } }));
      const paid = await pay({ txid, data: addDays(due, 1) });
      expect(paid.status).toBe(202);
      expect(paid.body).toMatchObject({ txid, valor: '83.50' });
    });

    it('refuses, changing nothing: past validity, a removed charge, a damaged or foreign BR Code, bad data, both forms at once', async () => {
      const due = businessDayFrom(addDays(today, 2));
      const txid = newTxid('pr');
      const charge = await createCharge(api, txid, validCobV({ calendario: { dataDeVencimento: due, validadeAposVencimento: 1 } }));
      const code: string = charge.pixCopiaECola;
      const expired = await pay({ pixCopiaECola: code, data: addDays(due, 9) });
      expect(refusal(expired)).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'data']);
      expect(expired.body.detail).toMatch(/validade/);
      expect(refusal(await pay({ pixCopiaECola: code, data: addDays(today, -1) }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'data']);
      expect(refusal(await pay({ pixCopiaECola: code, data: '2026-13-01' }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'data']);
      const crc = code.slice(0, -4) + (code.endsWith('0000') ? '1111' : '0000');
      expect(refusal(await pay({ pixCopiaECola: crc }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
      expect(refusal(await pay({ pixCopiaECola: 'not a br code' }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
      expect(refusal(await pay({ pixCopiaECola: code, txid }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
      // A charge pays its payload's valor.final: a valor beside it is refused, not silently ignored.
      expect(refusal(await pay({ pixCopiaECola: code, valor: '0.01' }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'valor']);
      expect(refusal(await pay({ txid, valor: '1.00' }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'valor']);
      // And to the key its payload names: a chave beside it is refused too.
      expect(refusal(await pay({ pixCopiaECola: code, chave: 'outra@loja.example' }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'chave']);
      expect(refusal(await pay({ txid, chave: '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc' }))).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'chave']);
      const foreign = buildDynamicBrCode({ location: `evil.example.com${locationPath(code).path}`, merchantName: 'X', merchantCity: 'Y' });
      const notOurs = await pay({ pixCopiaECola: foreign });
      expect(refusal(notOurs)).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
      expect(notOurs.body.detail).toMatch(/evil\.example\.com/);
      expect((await api.request('PATCH', `/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(200);
      const removed = await pay({ pixCopiaECola: code });
      expect(refusal(removed)).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
      expect(removed.body.detail).toMatch(/REMOVIDA_PELO_USUARIO_RECEBEDOR/);
      expect((await api.request('GET', `/cobv/${txid}`)).body.pix).toBeUndefined();
    });

    it('refuses a payload whose signature does not verify (a location host that tampers with valor.final)', async () => {
      // A stand-in for the location host: forwards to the API, but raises valor.final in the JWS payload.
      let target = '';
      const tamper: Server = createServer((req, res) => {
        void (async () => {
          const upstream = await fetch(`${target}${req.url}`);
          let text = await upstream.text();
          if (req.url!.startsWith('/qr/v2/cobv/') && upstream.status === 200) {
            const [h, p, sig] = text.split('.');
            const payload = b64json(p);
            payload.valor.final = '0.01';
            text = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
          }
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' }).end(text);
        })();
      });
      await new Promise<void>((resolve) => tamper.listen(0, '127.0.0.1', resolve));
      const other = await startApi({ env: { LOCATION_HOST, DATA_DIR: dataDir, SANDBOX_LOCATION_BASE_URL: `http://127.0.0.1:${(tamper.address() as { port: number }).port}` }, clock });
      target = other.baseUrl;
      try {
        const txid = newTxid('ps');
        const charge = await createCharge(other, txid, validCobV());
        const forged = await pay({ pixCopiaECola: charge.pixCopiaECola }, other);
        expect(refusal(forged)).toEqual([400, problemTypeUri('CobVOperacaoInvalida'), 'pixCopiaECola']);
        expect(forged.body.detail).toMatch(/assinatura/);
        expect((await other.request('GET', `/cobv/${txid}`)).body.status).toBe('ATIVA');
      } finally {
        await other.stop();
        tamper.close();
      }
    });
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

  it('production: signs with PAYLOAD_SIGNING_KEY_FILE/_CERT_FILE and publishes PAYLOAD_SIGNING_PREVIOUS_CERT_FILE too, never signing with it', async () => {
    const keys = makePayloadKeyFiles();
    const prod = await startApi({
      env: { MODE: 'production', LOCATION_HOST, PAYLOAD_SIGNING_KEY_FILE: keys.file('current.key'), PAYLOAD_SIGNING_CERT_FILE: keys.file('current.crt'), PAYLOAD_SIGNING_PREVIOUS_CERT_FILE: keys.file('previous.crt') },
      clock,
    });
    try {
      const jwks = JSON.parse((await get(prod, '/qr/v2/jwks')).text);
      expect(jwks.keys).toHaveLength(2);
      const der = (file: string) => new X509Certificate(readFileSync(keys.file(file))).raw.toString('base64');
      expect(jwks.keys.map((k: any) => k.x5c[0])).toEqual([der('current.crt'), der('previous.crt')]);
      const txid = newTxid('pp');
      const created = await prod.request('PUT', `/cobv/${txid}`, validCobV());
      expect(created.status).toBe(201);
      const { path: p } = locationPath(created.body.pixCopiaECola);
      const { header } = verifyIndependently((await get(prod, p)).text, jwks);
      expect(header.kid).toBe(jwks.keys[0].kid);
    } finally {
      await prod.stop();
      rmSync(keys.dir, { recursive: true, force: true });
    }
  });
});
