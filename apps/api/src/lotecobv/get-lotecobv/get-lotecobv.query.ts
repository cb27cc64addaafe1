import type { Recebedor } from '@pix/domain';

/** GET /lotecobv/{id}: the calling receiver's batch and the status of each of its requests. */
export class GetLoteCobVQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly id: string,
  ) {}
}
