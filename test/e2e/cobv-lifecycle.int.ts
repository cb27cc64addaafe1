import { parseBrCode } from '@pix/domain';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { createCharge, expectNoCharge, expectProblem, readCharge, WHOLE_TIME } from '../support/cobv-expect';

const REMOVIDA = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('cobv lifecycle over HTTP', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.stop());

  it('PUT on a new txid creates the charge at revisao 0 with loc, recebedor and pixCopiaECola, and GET returns it as created', async () => {
    const txid = newTxid('life');
    const sent = validCobV();
    const put = await api.request('PUT', `/cobv/${txid}`, sent);

    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({
      txid,
      revisao: 0,
      status: 'ATIVA',
      calendario: { dataDeVencimento: sent.calendario.dataDeVencimento, validadeAposVencimento: 30 },
      devedor: sent.devedor,
      valor: { original: '123.45' },
      chave: LOCAL_KEY,
      solicitacaoPagador: sent.solicitacaoPagador,
      recebedor: { nome: expect.any(String), cnpj: expect.stringMatching(/^[0-9A-Z]{14}$/), cidade: expect.any(String), uf: expect.any(String), cep: expect.any(String), logradouro: expect.any(String) },
    });
    expect(put.body.devedor).toEqual(sent.devedor);
    expect(put.body.calendario.criacao).toMatch(RFC3339_MS_UTC);
    expect(put.body.loc).toEqual({ id: expect.any(Number), location: expect.stringMatching(/^localhost:\d+\/qr\/v2\/cobv\/[0-9a-f]{32}$/), tipoCob: 'cobv', criacao: expect.stringMatching(RFC3339_MS_UTC), txid });
    expect(put.body.location).toBe(put.body.loc.location);
    expect(typeof put.body.pixCopiaECola).toBe('string');

    const get = await api.request('GET', `/cobv/${txid}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(put.body);
  });

  it('pixCopiaECola is a BR Code with a valid CRC whose field 26.25 is exactly the scheme-less location', async () => {
    const txid = newTxid('brcode');
    const charge = await createCharge(api, txid, validCobV());
    const parsed = parseBrCode(charge.pixCopiaECola);

    expect(parsed.crcValid).toBe(true);
    expect(parsed.merchantAccount.get('00')).toBe('br.gov.bcb.pix');
    expect(parsed.merchantAccount.get('25')).toBe(charge.location);
    expect(parsed.merchantAccount.get('25')).not.toMatch(/^https?:/);
    expect(parsed.fields.get('01')).toBe('12');
    expect(parsed.fields.get('53')).toBe('986');
  });

  it('a second PUT with a different body revises to revisao 1 (same loc), an identical PUT adds no revision', async () => {
    const txid = newTxid('reput');
    const created = await createCharge(api, txid, validCobV());
    const changed = validCobV({ valor: { original: '200.00' }, solicitacaoPagador: 'Segunda via' });

    const second = await api.request('PUT', `/cobv/${txid}`, changed);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ revisao: 1, valor: { original: '200.00' }, solicitacaoPagador: 'Segunda via' });
    expect(second.body.loc).toEqual(created.loc);
    expect(second.body.calendario.criacao).toBe(created.calendario.criacao);

    const third = await api.request('PUT', `/cobv/${txid}`, changed);
    expect(third.status).toBe(201);
    expect(third.body.revisao).toBe(1);
    expect(await readCharge(api, txid)).toEqual(second.body);
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=2`), 400, 'CobVConsultaInvalida', 'revisao');
  });

  it('PATCH revises one field at revisao + 1 and a PATCH of valor.original keeps the multa', async () => {
    const txid = newTxid('patch');
    const created = await createCharge(api, txid, validCobV({ valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '0.30' } } }));

    const patched = await api.request('PATCH', `/cobv/${txid}`, { valor: { original: '150.00' } });
    expect(patched.status).toBe(200);
    expect(patched.body.revisao).toBe(created.revisao + 1);
    expect(patched.body.valor).toEqual({ original: '150.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '0.30' } });
    expect({ ...patched.body, revisao: 0, valor: created.valor }).toEqual(created);

    const again = await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'Nova mensagem' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ revisao: 2, solicitacaoPagador: 'Nova mensagem', valor: { original: '150.00', multa: { modalidade: 2, valorPerc: '2.00' } } });
    expect(await readCharge(api, txid)).toEqual(again.body);
  });

  it('PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR removes at revisao + 1; a retried removal is 200 with the charge as it is; PUT and altering PATCHes are CobVOperacaoInvalida and change nothing', async () => {
    const txid = newTxid('remove');
    const created = await createCharge(api, txid, validCobV());
    const removed = await api.request('PATCH', `/cobv/${txid}`, { status: REMOVIDA });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ status: REMOVIDA, revisao: created.revisao + 1, valor: created.valor });
    const stored = await readCharge(api, txid);
    expect(stored).toEqual(removed.body);

    expectProblem(await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original: '1.00' } })), 400, 'CobVOperacaoInvalida');
    expectProblem(await api.request('PUT', `/cobv/${txid}`, validCobV()), 400, 'CobVOperacaoInvalida');
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'depois de removida' }), 400, 'CobVOperacaoInvalida');
    // A retry alters nothing: no new revision, the charge as stored (ADR 4).
    const retried = await api.request('PATCH', `/cobv/${txid}`, { status: REMOVIDA });
    expect([retried.status, retried.body]).toEqual([200, stored]);
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, { status: REMOVIDA, valor: { original: '1.00' } }), 400, 'CobVOperacaoInvalida');
    expect(await readCharge(api, txid)).toEqual(stored);
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=2`), 400, 'CobVConsultaInvalida', 'revisao');
  });

  it('GET ?revisao=n returns the charge as it was at revision n, and a missing revision is CobVConsultaInvalida', async () => {
    const txid = newTxid('history');
    const r0 = await createCharge(api, txid, validCobV({ valor: { original: '10.00' } }));
    const r1 = (await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original: '20.00' } }))).body;
    const r2 = (await api.request('PATCH', `/cobv/${txid}`, { devedor: { cnpj: '12ABC34501DE35', nome: 'Empresa Alfanumerica' } })).body;
    expect([r0.revisao, r1.revisao, r2.revisao]).toEqual([0, 1, 2]);

    expect(await readCharge(api, txid, 0)).toEqual(r0);
    expect(await readCharge(api, txid, 1)).toEqual(r1);
    expect(await readCharge(api, txid, 2)).toEqual(r2);
    expect((await readCharge(api, txid, 0)).devedor).toEqual(validCobV().devedor);
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=99`), 400, 'CobVConsultaInvalida', 'revisao');
    expect(await readCharge(api, txid)).toEqual(r2);
  });

  it('a PUT replaces the whole content: optional members not sent again are gone', async () => {
    const txid = newTxid('replace');
    await createCharge(api, txid, validCobV({ valor: { original: '80.00', multa: { modalidade: 1, valorPerc: '5.00' } }, infoAdicionais: [{ nome: 'Pedido', valor: '1' }] }));
    const { solicitacaoPagador: _s, ...withoutMessage } = validCobV({ valor: { original: '80.00' } });
    const replaced = await api.request('PUT', `/cobv/${txid}`, withoutMessage);
    expect(replaced.status).toBe(201);
    expect(replaced.body.revisao).toBe(1);
    expect(replaced.body.valor).toEqual({ original: '80.00' });
    expect(replaced.body).not.toHaveProperty('infoAdicionais');
    expect(replaced.body).not.toHaveProperty('solicitacaoPagador');
    expect(await readCharge(api, txid)).toEqual(replaced.body);
  });

  it('naming the charge\'s own loc.id changes nothing else, so it adds no revision (contract: loc alone never increments revisao)', async () => {
    const txid = newTxid('ownloc');
    const created = await createCharge(api, txid, validCobV());
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id: created.loc.id } }));
    expect(put.status).toBe(201);
    expect(put.body).toEqual(created);
    const patch = await api.request('PATCH', `/cobv/${txid}`, { loc: { id: created.loc.id } });
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual(created);
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=1`), 400, 'CobVConsultaInvalida', 'revisao');
  });

  it('validadeAposVencimento defaults to 30 when not sent, 0 is kept, and the largest amount round-trips exactly', async () => {
    const txid = newTxid('defaults');
    const body = validCobV({ valor: { original: '9999999999.99' } });
    delete body.calendario.validadeAposVencimento;
    const created = await createCharge(api, txid, body);
    expect(created.calendario.validadeAposVencimento).toBe(30);
    expect(created.valor.original).toBe('9999999999.99');
    const zero = await api.request('PATCH', `/cobv/${txid}`, { calendario: { validadeAposVencimento: 0 }, valor: { original: '0.01' } });
    expect(zero.status).toBe(200);
    expect(zero.body.calendario).toEqual({ ...created.calendario, validadeAposVencimento: 0 });
    expect(zero.body.valor.original).toBe('0.01');
  });

  it('GET and PATCH of a txid that was never created answer 404 CobVNaoEncontrada', async () => {
    const txid = newTxid('ghost');
    expectProblem(await api.request('GET', `/cobv/${txid}`), 404, 'CobVNaoEncontrada');
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=0`), 404, 'CobVNaoEncontrada');
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'x' }), 404, 'CobVNaoEncontrada');
    await expectNoCharge(api, txid);
  });
});

describe('cobv due dates against the creation date in São Paulo', () => {
  // 01:30 UTC on 10 March is still 9 March in São Paulo (UTC−3): the business date is the 9th.
  let now = new Date('2026-03-10T01:30:00.000Z');
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ clock: { now: () => now } });
  });
  afterAll(async () => api?.stop());

  it('a due date equal to today in São Paulo is accepted, the day before is refused; PATCH compares with the creation date', async () => {
    const early = newTxid('early');
    const dueDay = (d: string) => validCobV({ calendario: { dataDeVencimento: d, validadeAposVencimento: 0 } });
    expectProblem(await api.request('PUT', `/cobv/${early}`, dueDay('2026-03-08')), 400, 'CobVOperacaoInvalida', 'cobv.calendario.dataDeVencimento');
    await expectNoCharge(api, early);

    const txid = newTxid('today');
    const created = await createCharge(api, txid, dueDay('2026-03-09'));
    expect(created.calendario).toEqual({ criacao: '2026-03-10T01:30:00.000Z', dataDeVencimento: '2026-03-09', validadeAposVencimento: 0 });

    now = new Date('2026-03-20T15:00:00.000Z'); // ten days later
    const later = await api.request('PATCH', `/cobv/${txid}`, { calendario: { dataDeVencimento: '2026-03-12' } });
    expect(later.status).toBe(200);
    expect(later.body.calendario).toMatchObject({ criacao: '2026-03-10T01:30:00.000Z', dataDeVencimento: '2026-03-12' });
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, { calendario: { dataDeVencimento: '2026-03-08' } }), 400, 'CobVOperacaoInvalida', 'cobv.calendario.dataDeVencimento');
    expect(await readCharge(api, txid)).toEqual(later.body);
  });
});

describe('cobv across a restart', () => {
  it('a restarted api over the same database reads back every charge, revision and listing identically', async () => {
    const first = await startApi();
    const db = first.db;
    try {
      const txids = [newTxid('keep'), newTxid('keep'), newTxid('keep'), newTxid('keep')];
      await createCharge(first, txids[0], validCobV());
      await createCharge(first, txids[1], validCobV({ devedor: { cnpj: '12ABC34501DE35', nome: 'Empresa Alfanumerica' } }));
      await createCharge(first, txids[2], validCobV({ valor: { original: '1.00' } }));
      await first.request('PUT', `/cobv/${txids[2]}`, validCobV({ valor: { original: '2.00' } }));
      await createCharge(first, txids[3], validCobV());
      await first.request('PATCH', `/cobv/${txids[3]}`, { status: REMOVIDA });

      const before = await Promise.all(txids.map((t) => readCharge(first, t)));
      const revision0 = await readCharge(first, txids[2], 0);
      const listBefore = (await first.request('GET', `/cobv?${WHOLE_TIME}`)).body;
      await first.stop({ keepDatabase: true });

      const second = await startApi({ db });
      try {
        expect(await Promise.all(txids.map((t) => readCharge(second, t)))).toEqual(before);
        expect(await readCharge(second, txids[2], 0)).toEqual(revision0);
        expect((await second.request('GET', `/cobv?${WHOLE_TIME}`)).body).toEqual(listBefore);
        // and it keeps working: a revision after the restart continues the numbering
        const revised = await second.request('PATCH', `/cobv/${txids[0]}`, { solicitacaoPagador: 'após reinício' });
        expect(revised.status).toBe(200);
        expect(revised.body.revisao).toBe(1);
        expect(revised.body.loc).toEqual(before[0].loc);
      } finally {
        await second.stop();
      }
    } finally {
      await db.drop();
    }
  });
});
