/** Amounts are integer cents; percentages integer hundredths of a percent ("2.50" → 250). */
export type Cents = number;

export type CobVStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface Devedor {
  cpf?: string;
  cnpj?: string;
  nome: string;
  email?: string;
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

export interface ModalidadeValor {
  modalidade: number;
  /** Cents or hundredths of a percent, by modalidade: both have two implied decimals. */
  valorPerc: number;
}

export interface DescontoDataFixaCobV {
  data: string;
  valorPerc: number;
}

export interface DescontoCobV {
  modalidade: number;
  valorPerc?: number;
  descontoDataFixa?: DescontoDataFixaCobV[];
}

export interface ValorCobV {
  original: Cents;
  multa?: ModalidadeValor;
  juros?: ModalidadeValor;
  abatimento?: ModalidadeValor;
  desconto?: DescontoCobV;
}

export interface InfoAdicional {
  nome: string;
  valor: string;
}

/** What the receiver decides about a charge: everything that has a revision history. */
export interface CobVContent {
  calendario: { dataDeVencimento: string; validadeAposVencimento: number };
  devedor: Devedor;
  valor: ValorCobV;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

/** The receiving customer (usuário recebedor), snapshotted on the charge at creation. */
export interface Recebedor {
  /** The tenant: every charge, batch, webhook and Pix belongs to exactly one receiver. */
  id: string;
  nome: string;
  cnpj?: string;
  cpf?: string;
  nomeFantasia?: string;
  logradouro: string;
  cidade: string;
  uf: string;
  cep: string;
  /** Pix keys (DICT) that belong to this receiver. */
  chaves: string[];
}

export interface PayloadLocation {
  id: number;
  /** Where the payer's app fetches the charge payload (host + path, https implied in the BR Code). */
  location: string;
  criacao: string;
}

/**
 * What `loc.id` names among the receiver's locations when the request cannot use it (an implicit
 * location, freed or not, or one serving another charge): why it is refused. Absent: no location
 * of this receiver has that id.
 */
export interface LocationReferenciada {
  /** The charge it serves, if any. */
  txid?: string;
}

/** The wire shape of money fields as received (already shape-checked at the edge). */
export interface ModalidadeValorInput {
  modalidade: number;
  valorPerc: string;
}

export interface CobVInput {
  calendario?: { dataDeVencimento?: string; validadeAposVencimento?: number };
  devedor?: Partial<Devedor>;
  loc?: { id?: number };
  valor?: {
    original?: string;
    multa?: ModalidadeValorInput;
    juros?: ModalidadeValorInput;
    abatimento?: ModalidadeValorInput;
    desconto?: { modalidade: number; valorPerc?: string; descontoDataFixa?: { data: string; valorPerc: string }[] };
  };
  chave?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

export interface CobVPatchInput extends CobVInput {
  status?: string;
}
