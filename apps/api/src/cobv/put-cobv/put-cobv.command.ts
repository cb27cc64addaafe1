/** PUT /cobv/{txid}: create a due charge, or alter an ATIVA one. `body` is the raw JSON. */
export class PutCobVCommand {
  constructor(
    readonly txid: string,
    readonly body: unknown,
  ) {}
}
