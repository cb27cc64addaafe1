import type { CobVInput, Recebedor } from '@pix/domain';

/** PUT /cobv/{txid}: create a due charge, or alter an ATIVA one, for the calling receiver. `input` is the validated body. */
export class PutCobVCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly txid: string,
    readonly input: CobVInput,
  ) {}
}
