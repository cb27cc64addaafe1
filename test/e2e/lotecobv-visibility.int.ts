import { Client } from 'pg';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { expectProblem } from '../support/cobv-expect';
import { settledBatch } from '../support/lotecobv-expect';

jest.setTimeout(120_000);

const PERIOD = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
// The requests read model's writers take this lock shared; held exclusively (as a replay's
// switch-over does), it holds back the processor's append of a round's decisions, while the
// charges of that round, appended before it (rm_cobv, rm_loc), are already there.
const LOCK = `SELECT pg_advisory_xact_lock(hashtext('projection:lotecobv-solicitacoes'))`;
const WAITING = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

describe('lotecobv: a charge whose creation request is EM_PROCESSAMENTO does not exist (ADR 6)', () => {
  let api: RunningApi;
  let sql: Client;
  /** GET /cobv/{txid}/qrcode is ours, not the contract's: fetched as is. */
  const qrcode = async (txid: string) => (await fetch(`${api.baseUrl}/v2/cobv/${txid}/qrcode`, { headers: { authorization: `Bearer ${await api.tokenFor()}` } })).status;
  beforeAll(async () => {
    api = await startApi();
    sql = new Client({ connectionString: api.db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await api?.stop();
  });

  /** What a payer's bank is served at a payload location: status and problem type. */
  const payer = async (token: string) => {
    const res = await fetch(`${api.baseUrl}/qr/v2/cobv/${token}`);
    return { status: res.status, type: res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { type: string }).type : await res.text() };
  };
  const locTxids = async (filter: string) =>
    (await api.request('GET', `/loc?${PERIOD}${filter}&paginacao.itensPorPagina=1000`)).body.loc.map((l: any) => l.txid).sort();

  it('is not served by GET /cobv/{txid} (nor ?revisao, /qrcode, its payload location), nor listed or counted, nor named by its location, nor open to PATCH; once CRIADA it is', async () => {
    const id = '4242';
    // A location that serves no charge: what the payer's bank gets there is what a pending charge's location gives.
    const free = (await api.request('POST', '/loc', { tipoCob: 'cobv' })).body;
    const noCharge = await payer(free.location.slice(free.location.lastIndexOf('/') + 1));
    expect(noCharge.status).toBe(404);
    const txids = Array.from({ length: 1000 }, () => newTxid('vis'));
    expect((await api.request('PUT', `/lotecobv/${id}`, { descricao: 'Visibilidade', cobsv: txids.map((txid) => ({ txid, ...validCobV() })) })).status).toBe(202);
    // Ten rounds of 100: the round after this moment appends its charges, then waits here.
    await sql.query(`BEGIN; ${LOCK}`);
    let held = false;
    let hidden: { txid: string; token: string; loc: number }[] = [];
    try {
      for (const deadline = Date.now() + 20_000; !held && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) held = (await sql.query(WAITING)).rows[0].n > 0;
      expect(held).toBe(true);

      // Frozen: statuses cannot move while the decisions wait. Charges the batch is creating:
      const lote = (await api.request('GET', `/lotecobv/${id}`)).body;
      const pending = new Set<string>(lote.cobsv.filter((c: any) => c.status === 'EM_PROCESSAMENTO').map((c: any) => c.txid));
      const criadas = lote.cobsv.filter((c: any) => c.status === 'CRIADA').map((c: any) => c.txid).sort();
      const stored = await sql.query<{ txid: string; token: string; loc: number }>(
        `SELECT doc->>'txid' AS txid, location_token AS token, (doc->'loc'->>'id')::int AS loc FROM rm_cobv WHERE lote_cobv_id = $1`,
        [Number(id)],
      );
      hidden = stored.rows.filter((r) => pending.has(r.txid));
      expect(hidden.length).toBeGreaterThan(0);

      const listed = await api.request('GET', `/cobv?${PERIOD}&loteCobVId=${id}&paginacao.itensPorPagina=1000`);
      expect(listed.body.cobs.map((c: any) => c.txid).sort()).toEqual(criadas);
      expect(listed.body.parametros.paginacao.quantidadeTotalDeItens).toBe(criadas.length);
      const all = await api.request('GET', `/cobv?${PERIOD}&paginacao.itensPorPagina=1`);
      expect(all.body.parametros.paginacao.quantidadeTotalDeItens).toBe(criadas.length);
      // GET /loc: the pending charges' locations exist but name no txid, with or without txIdPresente.
      expect((await locTxids('')).filter(Boolean)).toEqual(criadas);
      expect(await locTxids('&txIdPresente=true')).toEqual(criadas);
      const semTxid = await api.request('GET', `/loc?${PERIOD}&txIdPresente=false&paginacao.itensPorPagina=1000`);
      expect(semTxid.body.loc.map((l: any) => l.id).sort()).toEqual([free.id, ...hidden.map((h) => h.loc)].sort());

      for (const { txid, token, loc } of hidden.slice(0, 5)) {
        expectProblem(await api.request('GET', `/cobv/${txid}`), 404, 'CobVNaoEncontrada');
        expectProblem(await api.request('GET', `/cobv/${txid}?revisao=0`), 404, 'CobVNaoEncontrada');
        expect(await qrcode(txid)).toBe(404);
        expect(await payer(token)).toEqual(noCharge);
        const location = await api.request('GET', `/loc/${loc}`);
        expect([location.status, location.body.id, 'txid' in location.body]).toEqual([200, loc, false]);
        // PATCH finds the charge in its stream and refuses it with the contract's violation (PUT
        // decides alike, but its append would queue behind the held one).
        const patch = await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'Outra' });
        expectProblem(patch, 400, 'CobVOperacaoInvalida', 'txid');
        expect(patch.body.violacoes[0].razao).toBe('Este txid está associado a um lote e no referido lote, o status desta cobrança está atribuído como EM_PROCESSAMENTO ou NEGADA.');
      }
      // Nor can its location be taken from it: it names no txid, so DELETE /loc/{id}/txid unlinks nothing.
      const unlinked = await api.request('DELETE', `/loc/${hidden[0].loc}/txid`);
      expect([unlinked.status, unlinked.body.id, 'txid' in unlinked.body]).toEqual([200, hidden[0].loc, false]);
    } finally {
      await sql.query('COMMIT');
    }

    const done = await settledBatch(api, id, 60_000);
    expect(done.cobsv.every((c: any) => c.status === 'CRIADA')).toBe(true);
    const listed = await api.request('GET', `/cobv?${PERIOD}&loteCobVId=${id}&paginacao.itensPorPagina=1000`);
    expect(listed.body.cobs.map((c: any) => c.txid).sort()).toEqual([...txids].sort());
    // There now, as the batch created it: the refused PATCH changed nothing.
    const one = await api.request('GET', `/cobv/${hidden[0].txid}`);
    expect([one.status, one.body.status, one.body.revisao, one.body.solicitacaoPagador]).toEqual([200, 'ATIVA', 0, 'Cobrança dos serviços prestados.']);
    expect(await qrcode(hidden[0].txid)).toBe(200);
    expect((await fetch(`${api.baseUrl}/qr/v2/cobv/${hidden[0].token}`)).status).toBe(200);
    expect((await api.request('GET', `/loc/${hidden[0].loc}`)).body.txid).toBe(hidden[0].txid);
    expect(await locTxids('&txIdPresente=true')).toEqual([...txids].sort());
  });
});
