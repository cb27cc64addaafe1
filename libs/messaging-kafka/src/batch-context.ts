import { BaseRpcContext } from '@nestjs/microservices';
import type { CashInTrace } from '@pix/contracts';

type BatchContextArgs = [topic: string, partition: number, offsets: { first: string; last: string }, heartbeat: () => Promise<void>, traces: readonly (CashInTrace | undefined)[]];

/** What a batch handler may ask about its batch (`@Ctx()`): where it came from, and a heartbeat for long work. */
export class KafkaBatchContext extends BaseRpcContext<BatchContextArgs> {
  getTopic(): string {
    return this.args[0];
  }

  getPartition(): number {
    return this.args[1];
  }

  /** The first and last offsets of the batch handed over (invalid messages included, already dead-lettered). */
  getOffsets(): { first: string; last: string } {
    return this.args[2];
  }

  getHeartbeat(): () => Promise<void> {
    return this.args[3];
  }

  /** Per message of the batch (same order), its sender's correlation id from the `x-correlation-id` header, if sane. */
  getTraces(): readonly (CashInTrace | undefined)[] {
    return this.args[4];
  }
}
