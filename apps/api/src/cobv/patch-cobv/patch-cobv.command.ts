import type { Recebedor } from '@pix/domain';

/** PATCH /cobv/{txid}: revise fields of the calling receiver's ATIVA charge, or remove it. */
export class PatchCobVCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly txid: string,
    readonly body: unknown,
  ) {}
}
