import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Hands a cash-in handler's error to the transport as it is. Nest's default filter turned it into
 * "Internal server error" and logged its stack at every retry: the transport's retry line said
 * only that, and a 10 s database outage wrote 36 stacks (outage audit, 2026-11-27). The transport
 * now names the cause on each retry line (its stack on the first) and in a quarantined message's
 * dead-letter reason.
 */
@Catch()
export class PassHandlerErrors implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
