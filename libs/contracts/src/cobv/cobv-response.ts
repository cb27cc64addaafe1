// Wire shapes of the cobv responses (API Pix 2.9.0 schemas CobVGerada, CobVCompleta,
// CobsVConsultadas, Paginacao). Types only: which members are required follows the union of the
// `required` lists the official schema applies, since responses are checked against it.

/** Schema CobrancaStatus. */
export type CobrancaStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/** PessoaFisica | PessoaJuridica: exactly one of cpf / cnpj is present (not enforced by the type). */
export interface DocumentoPessoa {
  cpf?: string;
  cnpj?: string;
}

/** Schema DadosComplementaresPessoa. */
export interface EnderecoPessoa {
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

/** `devedor` of DadosDevedor. */
export type DevedorCobV = DocumentoPessoa & EnderecoPessoa & { nome: string; email?: string };

/** `recebedor` of DadosRecebedor: the address is required; `nomeFantasia` only for a CNPJ. */
export type RecebedorCobV = DocumentoPessoa & {
  nome: string;
  nomeFantasia?: string;
  logradouro: string;
  cidade: string;
  uf: string;
  cep: string;
};

/** Modality + amount or percentage ("123.45"), as multa, juros and abatimento. */
export interface ModalidadeValorPerc {
  modalidade: number;
  valorPerc: string;
}

export interface DescontoDataFixa {
  /** YYYY-MM-DD */
  data: string;
  valorPerc: string;
}

export interface DescontoCobV {
  modalidade: number;
  descontoDataFixa?: DescontoDataFixa[];
  valorPerc?: string;
}

/** Schema CobVValor with `original` required (as in CobVGerada). */
export interface CobVValor {
  original: string;
  multa?: ModalidadeValorPerc;
  juros?: ModalidadeValorPerc;
  abatimento?: ModalidadeValorPerc;
  desconto?: DescontoCobV;
}

export interface CalendarioCobVGerada {
  /** RFC 3339 date-time. */
  criacao: string;
  /** YYYY-MM-DD */
  dataDeVencimento: string;
  validadeAposVencimento: number;
}

/** `loc` of CobVGerada: PayloadLocation plus the `txid` the response's `required` adds. */
export interface LocCobVGerada {
  id: number;
  txid: string;
  /** Scheme-less `host/path`, the same string as the BR Code's field 26/25 (derived by payloadLocation in @pix/domain). */
  location: string;
  tipoCob: 'cob' | 'cobv';
  /** RFC 3339 date-time. */
  criacao: string;
}

export interface InfoAdicional {
  nome: string;
  valor: string;
}

/** Schema CobVGerada: body of PUT/PATCH /cobv/{txid}. */
export interface CobVGerada {
  calendario: CalendarioCobVGerada;
  txid: string;
  revisao: number;
  loc?: LocCobVGerada;
  /** Scheme-less `host/path`, the same string as the BR Code's field 26/25 (derived by payloadLocation in @pix/domain). */
  location: string;
  status: CobrancaStatus;
  devedor: DevedorCobV;
  recebedor: RecebedorCobV;
  valor: CobVValor;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  pixCopiaECola?: string;
}

/** Schema Devolucao (inside a received Pix). */
export interface DevolucaoPix {
  id: string;
  rtrId: string;
  valor: string;
  natureza?: 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE';
  descricao?: string;
  horario: { solicitacao?: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
}

/** `componentesValor` of a Pix: how `valor` decomposes (cobv payments use original + extras). */
export interface ComponentesValorPix {
  original?: { valor: string };
  saque?: { valor: string; modalidadeAgente: string; prestadorDoServicoDeSaque: string };
  troco?: { valor: string; modalidadeAgente: string; prestadorDoServicoDeSaque: string };
  juros?: { valor: string };
  multa?: { valor: string };
  abatimento?: { valor: string };
  desconto?: { valor: string };
}

/** Schema Pix, as listed in CobVCompleta.pix. */
export interface PixRecebido {
  endToEndId: string;
  txid?: string;
  valor: string;
  componentesValor?: ComponentesValorPix;
  chave?: string;
  /** RFC 3339 date-time. */
  horario: string;
  infoPagador?: string;
  devolucoes?: DevolucaoPix[];
}

/** Schema CobVCompleta: body of GET /cobv/{txid}. */
export interface CobVCompleta extends CobVGerada {
  pix?: PixRecebido[];
}

/** Schema Paginacao. */
export interface Paginacao {
  paginaAtual: number;
  itensPorPagina: number;
  quantidadeDePaginas: number;
  quantidadeTotalDeItens: number;
}

/** Schema ParametrosConsultaCob: the filters echoed back by GET /cobv. */
export interface ParametrosConsultaCob {
  inicio: string;
  fim: string;
  cpf?: string;
  cnpj?: string;
  locationPresente?: boolean;
  status?: string;
  paginacao: Paginacao;
}

/**
 * One listed charge. The official schema requires `idCob` on each item without defining it
 * anywhere; we carry it as a string.
 */
export interface CobVConsultada extends CobVCompleta {
  idCob: string;
}

/** Schema CobsVConsultadas: body of GET /cobv. */
export interface CobsVConsultadas {
  parametros: ParametrosConsultaCob;
  cobs: CobVConsultada[];
}
