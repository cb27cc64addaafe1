import type { Recebedor } from '@pix/domain';

/** GET /lotecobv: the calling receiver's batches created in a period, paginated. */
export class ListLoteCobVQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly query: Record<string, string | string[] | undefined>,
  ) {}
}
