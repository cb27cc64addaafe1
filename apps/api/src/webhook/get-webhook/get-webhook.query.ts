import type { Recebedor } from '@pix/domain';

/** GET /webhook/{chave}: the key's registration if it is the calling receiver's, as the stream says (no read-model lag). */
export class GetWebhookQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly chave: string,
  ) {}
}
