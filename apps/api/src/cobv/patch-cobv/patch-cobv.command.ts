import type { CobVPatchInput, Recebedor } from '@pix/domain';

/** PATCH /cobv/{txid}: revise fields of the calling receiver's ATIVA charge, or remove it. `input` is the validated body. */
export class PatchCobVCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly txid: string,
    readonly input: CobVPatchInput,
  ) {}
}
