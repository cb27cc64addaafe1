import type { Recebedor } from '@pix/domain';

/** GET /cobv: the calling receiver's charges created in a period, filtered and paginated. */
export class ListCobVQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly query: Record<string, string | string[] | undefined>,
  ) {}
}
