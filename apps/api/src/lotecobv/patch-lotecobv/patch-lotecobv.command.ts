import type { Recebedor } from '@pix/domain';

/** PATCH /lotecobv/{id}: revise some of the calling receiver's batch's original requests. */
export class PatchLoteCobVCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly id: string,
    readonly body: unknown,
  ) {}
}
