import type { Recebedor } from '@pix/domain';

/** DELETE /webhook/{chave}: from then on nothing more is sent for that key of the calling receiver. */
export class DeleteWebhookCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly chave: string,
  ) {}
}
