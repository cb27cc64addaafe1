import type { Recebedor } from '@pix/domain';

/** PUT /lotecobv/{id}: create a batch of due charges for the calling receiver, or alter all of its requests. */
export class PutLoteCobVCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly id: string,
    readonly body: unknown,
  ) {}
}
