/** PATCH /cobv/{txid}: revise fields of an ATIVA charge, or remove it. */
export class PatchCobVCommand {
  constructor(
    readonly txid: string,
    readonly body: unknown,
  ) {}
}
