/** PATCH /lotecobv/{id}: revise some of the batch's original requests. */
export class PatchLoteCobVCommand {
  constructor(
    readonly id: string,
    readonly body: unknown,
  ) {}
}
