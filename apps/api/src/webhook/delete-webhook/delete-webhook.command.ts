/** DELETE /webhook/{chave}: from then on nothing more is sent for that key. */
export class DeleteWebhookCommand {
  constructor(readonly chave: string) {}
}
