/** GET /webhook/{chave}: the key's registration, as the stream says (no read-model lag). */
export class GetWebhookQuery {
  constructor(readonly chave: string) {}
}
