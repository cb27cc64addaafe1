// RFC 7807 error bodies as the API Pix 2.9.0 defines them (schemas `Problema` and `Violacao`),
// plus the catalogue of error types this server emits. Meanings and statuses are copied from the
// "Tratamento de erros" section of the official `info.description`, so clients see BCB wording.

/** Error types (the `<TipoErro>` suffix of `type`) that this server may return. */
export type TipoErro =
  | 'RequisicaoInvalida'
  | 'AcessoNegado'
  | 'NaoEncontrado'
  | 'PermanentementeRemovido'
  | 'ErroInternoDoServidor'
  | 'ServicoIndisponivel'
  | 'IndisponibilidadePorTempoEsgotado'
  | 'CobVNaoEncontrada'
  | 'CobVOperacaoInvalida'
  | 'CobVConsultaInvalida'
  | 'LoteCobVNaoEncontrado'
  | 'LoteCobVOperacaoInvalida'
  | 'LoteCobVConsultaInvalida'
  | 'WebhookOperacaoInvalida'
  | 'WebhookNaoEncontrado'
  | 'WebhookConsultaInvalida'
  | 'PixNaoEncontrado'
  | 'PixConsultaInvalida'
  | 'PayloadLocationNaoEncontrado'
  | 'PayloadLocationOperacaoInvalida'
  | 'PayloadLocationConsultaInvalida'
  | 'CobPayloadNaoEncontrado'
  | 'CobPayloadOperacaoInvalida';

/** The contract fixes `type` as `https://pix.bcb.gov.br/api/v2/error/<TipoErro>`. */
export const PROBLEM_TYPE_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

/** One broken rule inside a `Problema` (official schema `Violacao`). */
export interface Violacao {
  razao: string;
  propriedade?: string;
  valor?: string;
}

/** RFC 7807 body (official schema `Problema`); `type`, `title` and `status` are required. */
export interface Problema {
  type: string;
  title: string;
  status: number;
  detail?: string;
  correlationId?: string;
  violacoes?: Violacao[];
}

export interface ProblemCatalogEntry {
  status: number;
  title: string;
  detail: string;
}

/**
 * Status, short title and official meaning of each error type. Titles follow the official
 * examples where one exists (e.g. "Cobrança inválida." for CobVOperacaoInvalida).
 */
export const PROBLEM_CATALOG: Record<TipoErro, ProblemCatalogEntry> = {
  RequisicaoInvalida: { status: 400, title: 'Requisição Inválida', detail: 'Requisição inválida.' },
  AcessoNegado: {
    status: 403,
    title: 'Acesso Negado',
    detail: 'Requisição de participante autenticado que viola alguma regra de autorização.',
  },
  NaoEncontrado: { status: 404, title: 'Não Encontrado', detail: 'Entidade não encontrada.' },
  PermanentementeRemovido: {
    status: 410,
    title: 'Permanentemente Removido',
    detail: 'Indica que a entidade existia, mas foi permanentemente removida.',
  },
  ErroInternoDoServidor: {
    status: 500,
    title: 'Erro Interno do Servidor',
    detail: 'Condição inesperada ao processar requisição.',
  },
  ServicoIndisponivel: {
    status: 503,
    title: 'Serviço Indisponível',
    detail:
      'Serviço não está disponível no momento. Serviço solicitado pode estar em manutenção ou fora da janela de funcionamento.',
  },
  IndisponibilidadePorTempoEsgotado: {
    status: 504,
    title: 'Indisponibilidade por Tempo Esgotado',
    detail: 'Indica que o serviço demorou além do esperado para retornar.',
  },
  CobVNaoEncontrada: {
    status: 404,
    title: 'Cobrança não encontrada.',
    detail: 'Cobrança com vencimento não encontrada para o txid informado.',
  },
  CobVOperacaoInvalida: {
    status: 400,
    title: 'Cobrança inválida.',
    detail:
      'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.',
  },
  CobVConsultaInvalida: {
    status: 400,
    title: 'Consulta inválida.',
    detail:
      'Os parâmetros de consulta à lista de cobranças com vencimento não respeitam o schema ou não fazem sentido semanticamente.',
  },
  LoteCobVNaoEncontrado: {
    status: 404,
    title: 'Lote não encontrado.',
    detail: 'Lote não encontrado para o id informado.',
  },
  LoteCobVOperacaoInvalida: {
    status: 400,
    title: 'Lote de cobranças inválido.',
    detail:
      'A requisição que busca alterar ou criar um lote de cobranças com vencimento não respeita o _schema_ ou está semanticamente errada.',
  },
  LoteCobVConsultaInvalida: {
    status: 400,
    title: 'Consulta inválida.',
    detail:
      'Os parâmetros de consulta à lista de lotes de cobrança com vencimento não respeitam o schema ou não fazem sentido semanticamente.',
  },
  WebhookOperacaoInvalida: {
    status: 400,
    title: 'Webhook inválido.',
    detail:
      'A presente requisição busca criar um webhook sem respeitar o _schema_ ou, ainda, apresenta semântica inválida.',
  },
  WebhookNaoEncontrado: {
    status: 404,
    title: 'Webhook não encontrado.',
    detail: 'O webhook denotado por {chave} não encontra-se estabelecido.',
  },
  WebhookConsultaInvalida: {
    status: 400,
    title: 'Consulta de webhooks inválida.',
    detail: 'Os parâmetros de consulta à lista de webhooks ativados não respeitam o schema ou não fazem sentido semanticamente.',
  },
  PixNaoEncontrado: {
    status: 404,
    title: 'Pix não encontrado.',
    detail: 'Pix não encontrado para o e2eid informado.',
  },
  PixConsultaInvalida: {
    status: 400,
    title: 'Consulta inválida.',
    detail:
      'Os parâmetros de consulta à lista de pix recebidos não respeitam o schema ou não fazem sentido semanticamente.',
  },
  PayloadLocationNaoEncontrado: {
    status: 404,
    title: 'Location não encontrada.',
    detail: 'Location não encontrada para o id informado.',
  },
  PayloadLocationOperacaoInvalida: {
    status: 400,
    title: 'PayloadLocation inválido.',
    detail: 'A presente requisição busca criar uma location sem respeitar o _schema_ estabelecido.',
  },
  PayloadLocationConsultaInvalida: {
    status: 400,
    title: 'Consulta inválida.',
    detail: 'Os parâmetros de consulta à lista de locations não respeitam o _schema_ ou não fazem sentido semanticamente.',
  },
  // Payload locations (tag CobPayload); the 404's title as the official RequisicaoInvalidaCobPayloadExample1.
  CobPayloadNaoEncontrado: {
    status: 404,
    title: 'Cobrança não encontrada.',
    detail: 'A cobrança em questão não foi encontrada para a location requisitada.',
  },
  CobPayloadOperacaoInvalida: {
    status: 400,
    title: 'Operação inválida.',
    detail: 'A cobrança existe, mas a requisição é inválida.',
  },
};

/** Full `type` URI for an error type. */
export function problemType(tipo: TipoErro): string {
  return PROBLEM_TYPE_BASE + tipo;
}

/**
 * Builds a `Problema` from the catalogue; `detail` may be overridden (the official examples use
 * situation-specific details) and empty `violacoes` are left out of the body.
 */
/** The most violations a problem lists: a body with 300,000 unknown members answered 30 MB of them. */
export const MAX_VIOLACOES = 100;

export function buildProblema(
  tipo: TipoErro,
  extra: { detail?: string; correlationId?: string; violacoes?: Violacao[] } = {},
): Problema {
  const entry = PROBLEM_CATALOG[tipo];
  const problema: Problema = {
    type: problemType(tipo),
    title: entry.title,
    status: entry.status,
    detail: extra.detail ?? entry.detail,
  };
  if (extra.correlationId !== undefined) problema.correlationId = extra.correlationId;
  if (extra.violacoes && extra.violacoes.length > 0) problema.violacoes = extra.violacoes.slice(0, MAX_VIOLACOES);
  return problema;
}
