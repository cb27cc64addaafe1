import type { Recebedor } from '@pix/domain';

/** PUT /cobv/{txid}: create a due charge, or alter an ATIVA one, for the calling receiver. `body` is the raw JSON. */
export class PutCobVCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly txid: string,
    readonly body: unknown,
  ) {}
}
