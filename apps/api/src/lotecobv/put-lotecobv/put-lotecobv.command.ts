/** PUT /lotecobv/{id}: create a batch of due charges, or alter all of its requests. */
export class PutLoteCobVCommand {
  constructor(
    readonly id: string,
    readonly body: unknown,
  ) {}
}
