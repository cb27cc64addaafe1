import { buildProblema, MAX_VIOLACOES, PROBLEM_CATALOG, PROBLEM_TYPE_BASE, problemType, TipoErro } from './problem';
import { parsePayloadLocationBody } from './loc/loc-request';
import { parseLoteCobVBody } from './lotecobv/lotecobv-request';
import { unknownMemberViolations } from './validation/own-members';
import { parseWebhookBody } from './webhook/webhook-request';

describe('problem catalogue', () => {
  const tipos = Object.keys(PROBLEM_CATALOG) as TipoErro[];

  it('uses the statuses of the official contract', () => {
    expect(PROBLEM_CATALOG.RequisicaoInvalida.status).toBe(400);
    expect(PROBLEM_CATALOG.AcessoNegado.status).toBe(403);
    expect(PROBLEM_CATALOG.NaoEncontrado.status).toBe(404);
    expect(PROBLEM_CATALOG.PermanentementeRemovido.status).toBe(410);
    expect(PROBLEM_CATALOG.ErroInternoDoServidor.status).toBe(500);
    expect(PROBLEM_CATALOG.ServicoIndisponivel.status).toBe(503);
    expect(PROBLEM_CATALOG.IndisponibilidadePorTempoEsgotado.status).toBe(504);
    for (const tipo of tipos) {
      if (/NaoEncontrad[oa]$/.test(tipo)) expect([tipo, PROBLEM_CATALOG[tipo].status]).toEqual([tipo, 404]);
      if (/(OperacaoInvalida|ConsultaInvalida)$/.test(tipo)) expect([tipo, PROBLEM_CATALOG[tipo].status]).toEqual([tipo, 400]);
    }
  });

  it('has a Portuguese title and detail for every type', () => {
    expect(tipos).toHaveLength(23);
    for (const tipo of tipos) {
      expect(PROBLEM_CATALOG[tipo].title.length).toBeGreaterThan(0);
      expect(PROBLEM_CATALOG[tipo].detail.length).toBeGreaterThan(0);
    }
  });

  it('builds bodies with the official type URI', () => {
    expect(problemType('CobVOperacaoInvalida')).toBe(`${PROBLEM_TYPE_BASE}CobVOperacaoInvalida`);
    const violacoes = [{ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' }];
    expect(buildProblema('CobVOperacaoInvalida', { violacoes })).toEqual({
      type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida',
      title: 'Cobrança inválida.',
      status: 400,
      detail:
        'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.',
      violacoes,
    });
    expect(buildProblema('NaoEncontrado', { violacoes: [] })).not.toHaveProperty('violacoes');
    expect(buildProblema('CobVNaoEncontrada', { detail: 'x', correlationId: 'c1' })).toMatchObject({ detail: 'x', correlationId: 'c1' });
  });
});

describe('violations are bounded (a body of 300,000 unknown members answered 30 MB in seconds)', () => {
  const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]));
  it.each([
    ['PUT /webhook', () => parseWebhookBody({ webhookUrl: 'https://x.example/h', ...many }).violacoes],
    ['POST /loc', () => parsePayloadLocationBody({ tipoCob: 'cobv', ...many }).violacoes],
    ['PUT /lotecobv', () => parseLoteCobVBody({ descricao: 'x', cobsv: [], ...many }, { maxSolicitacoes: 10, forCreation: true }).violacoes],
    ['shared check', () => unknownMemberViolations(many, [], 'body')],
  ])('%s lists at most MAX_VIOLACOES unknown members', (_route, violations) => {
    const v = violations();
    expect(v).toHaveLength(MAX_VIOLACOES);
    expect(v[0]).toMatchObject({ razao: expect.stringContaining('não é permitido pelo _schema_'), valor: '0' });
  });

  it('and so does every problem body', () => {
    const violacoes = Array.from({ length: 1_000 }, (_, i) => ({ razao: 'x', propriedade: `p${i}` }));
    expect(buildProblema('CobVOperacaoInvalida', { violacoes }).violacoes).toHaveLength(MAX_VIOLACOES);
  });
});
