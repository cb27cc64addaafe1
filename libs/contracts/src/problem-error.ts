import { buildProblema, type Problema, type TipoErro, type Violacao } from './problem';

/**
 * A refusal already phrased in the contract's terms, for layers that run before any use case
 * (body parsing, protocol checks). `status` overrides the catalogue's where HTTP needs another
 * code for the same type (415 and 413 are `RequisicaoInvalida` bodies).
 */
export class ProblemError extends Error {
  constructor(
    readonly tipo: TipoErro,
    readonly detail: string,
    readonly violacoes: Violacao[] = [],
    readonly status?: number,
  ) {
    super(`${tipo}: ${detail}`);
    this.name = 'ProblemError';
  }

  toProblema(correlationId: string): Problema {
    const body = buildProblema(this.tipo, { detail: this.detail, correlationId, violacoes: this.violacoes });
    return this.status === undefined ? body : { ...body, status: this.status };
  }
}
