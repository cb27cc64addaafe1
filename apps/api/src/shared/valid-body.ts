import type { PipeTransform } from '@nestjs/common';
import { validateBody, type Violacao } from '@pix/contracts';
import { DomainError, type DomainErrorKind } from '@pix/domain';

/**
 * Validation at the edge (issue 11): the controller's body parameter arrives as the DTO's
 * validated plain value, or the request is refused with the route's own problem and the shared
 * validator's violations (the same responses the handlers used to give). Handlers then take
 * typed commands and never look at shapes again.
 */
export class ValidBody<T extends object> implements PipeTransform<unknown, T> {
  constructor(
    private readonly dto: new () => T,
    private readonly kind: DomainErrorKind,
    private readonly detail: string,
  ) {}

  transform(body: unknown): T {
    const { value, violacoes } = validateBody(this.dto, body);
    if (!value) throw new DomainError(this.kind, this.detail, violacoes);
    return value;
  }
}

/** A path parameter checked before the body (so its problem wins, as when handlers checked it first). */
export class CheckedParam implements PipeTransform<string, string> {
  constructor(private readonly refuse: (value: string) => DomainError | undefined) {}

  transform(value: string): string {
    const refused = this.refuse(value);
    if (refused) throw refused;
    return value;
  }
}

/** The same at the edge for bodies with their own parser (not a class-validator DTO). */
export class ParsedBody<T> implements PipeTransform<unknown, T> {
  constructor(
    private readonly parse: (body: unknown) => { value?: T; violacoes: Violacao[] },
    private readonly kind: DomainErrorKind,
    private readonly detail: string,
  ) {}

  transform(body: unknown): T {
    const { value, violacoes } = this.parse(body);
    if (value === undefined) throw new DomainError(this.kind, this.detail, violacoes);
    return value;
  }
}
