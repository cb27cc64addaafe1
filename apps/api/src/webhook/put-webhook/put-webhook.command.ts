import type { Recebedor } from '@pix/domain';

/** PUT /webhook/{chave}: register (or replace) the URL that receives notifications for one of the calling receiver's keys. */
export class PutWebhookCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly chave: string,
    /** The validated body. */
    readonly body: { webhookUrl: string },
  ) {}
}
