import { buildProblema, type Problema } from '@pix/contracts';
import { isConnectionError } from '@pix/event-store';

/** A database restart takes seconds; clients retrying sooner would only add load. */
export const RETRY_AFTER_SECONDS = 2;

/** kafkajs failures (broker down, producer not yet connected) reach a request only through publishing. */
const isBrokerError = (error: unknown) => error instanceof Error && error.name.startsWith('KafkaJS');

/**
 * Both apps' answer when a dependency is down or restarting (the database, a pool that timed out
 * connecting, or for a sandbox cash-in the broker): 503 `ServicoIndisponivel` with Retry-After.
 * Nothing was stored, and it is expected, not a bug: no stack in the log. Undefined otherwise.
 */
export function unavailableProblem(error: unknown, correlationId: string): { status: 503; body: Problema; headers: Record<string, string> } | undefined {
  if (!isConnectionError(error) && !isBrokerError(error)) return undefined;
  return {
    status: 503,
    body: buildProblema('ServicoIndisponivel', { correlationId, detail: 'Serviço temporariamente indisponível; tente novamente em instantes.' }),
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  };
}
