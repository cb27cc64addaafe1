/** PUT /webhook/{chave}: register (or replace) the URL that receives the key's notifications. */
export class PutWebhookCommand {
  constructor(
    readonly chave: string,
    readonly body: unknown,
  ) {}
}
