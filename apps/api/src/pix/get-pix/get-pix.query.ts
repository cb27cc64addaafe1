import type { Recebedor } from '@pix/domain';

/** GET /pix/{e2eid}: one Pix received by the calling receiver. */
export class GetPixQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly e2eid: string,
  ) {}
}
