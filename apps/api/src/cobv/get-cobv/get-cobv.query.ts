import type { Recebedor } from '@pix/domain';

/** GET /cobv/{txid}[?revisao=n]: the calling receiver's charge as it is, or as it was at revision n. */
export class GetCobVQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly txid: string,
    readonly revisao?: string,
  ) {}
}
