import type { Recebedor } from '@pix/domain';

/** GET /pix: Pix received by the calling receiver in a period, with the contract's filters. */
export class ListPixQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly query: Record<string, string | string[] | undefined>,
  ) {}
}
