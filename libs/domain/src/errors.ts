import type { AccessErrorKind } from './access/errors';

/**
 * Typed domain errors. The domain names what went wrong; the API maps each kind to the
 * official problem type in one place.
 */
export interface Violation {
  razao: string;
  propriedade?: string;
  valor?: string;
}

export type DomainErrorKind =
  | 'CobVOperacaoInvalida'
  | 'CobVNaoEncontrada'
  | 'CobVConsultaInvalida'
  | 'LoteCobVOperacaoInvalida'
  | 'LoteCobVNaoEncontrado'
  | 'LoteCobVConsultaInvalida'
  | 'WebhookOperacaoInvalida'
  | 'WebhookNaoEncontrado'
  | 'WebhookConsultaInvalida'
  | 'PixNaoEncontrado'
  | 'PixConsultaInvalida'
  | 'PayloadLocationNaoEncontrado'
  | 'PayloadLocationOperacaoInvalida'
  | 'PayloadLocationConsultaInvalida'
  | 'AcessoNegado'
  /** Temporarily refused (a batch's requests have as many rounds waiting as they may): retry later. */
  | 'ServicoIndisponivel'
  | AccessErrorKind;

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly detail: string,
    readonly violacoes: Violation[] = [],
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'DomainError';
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
