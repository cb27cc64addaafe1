import { ConsoleLogger } from '@nestjs/common';
import { currentCorrelationId } from './request-context';

/** Nest's console logger, with `[cid=<id>]` on every line written while serving a request. */
export class CorrelatedLogger extends ConsoleLogger {
  protected override formatContext(context: string): string {
    const base = super.formatContext(context);
    const cid = currentCorrelationId();
    return cid ? `${base}[cid=${cid}] ` : base;
  }

  protected override printStackTrace(stack: string): void {
    const cid = currentCorrelationId();
    super.printStackTrace(cid && stack ? `[cid=${cid}] ${stack}` : stack);
  }
}
