import type { Recebedor } from '@pix/domain';
import type { ReceiverDirectory } from '../shared/ports';

/** TEMPORARY (replaced by the event-sourced directory of the access slice): the configured receiver only. */
export class ConfigReceiverDirectory implements ReceiverDirectory {
  constructor(private readonly only: Recebedor) {}

  async recebedor(id: string): Promise<Recebedor | undefined> {
    return id === this.only.id ? this.only : undefined;
  }

  async ownerOfChave(chave: string): Promise<string | undefined> {
    return this.only.chaves.includes(chave) ? this.only.id : undefined;
  }
}
