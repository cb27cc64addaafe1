/** GET /webhook: registrations, optionally by creation period, paginated. */
export class ListWebhookQuery {
  constructor(readonly query: Record<string, string | string[] | undefined>) {}
}
