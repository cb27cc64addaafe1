import type { Recebedor } from '@pix/domain';

/** GET /webhook: the calling receiver's registrations, optionally by creation period, paginated. */
export class ListWebhookQuery {
  constructor(
    readonly recebedor: Recebedor,
    readonly query: Record<string, string | string[] | undefined>,
  ) {}
}
