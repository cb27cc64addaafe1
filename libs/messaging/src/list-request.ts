import { parseRfc3339Instant, ProblemError, singleValue, unknownMemberViolations, type QueryInput, type Violacao } from '@pix/contracts';
import { NOTIFICATION_STATUSES, type NotificationStatus, type OutboxPageQuery } from '@pix/webhook-delivery';

export const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Earlier than any notification, and what PostgreSQL stores without complaint: bounds `before`. */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);

/**
 * Query of GET /notifier/notifications: `status` (pending, delivered, dead, cancelled), `limit`
 * (1 to 200, default 50) and `before` (the `proximo` of the previous page, or an RFC 3339 instant:
 * notifications created before it). Anything else, a repeated parameter or a bad value is a 400
 * naming it: an ignored filter would list what the operator did not ask for.
 */
export function parseListQuery(query: Record<string, unknown>): OutboxPageQuery {
  const out: Violacao[] = unknownMemberViolations(query, ['status', 'limit', 'before'], '');
  // Repeated or not text: refused by name, as every listing of the API refuses it.
  const one = (name: string): string | undefined => singleValue(query as QueryInput, name, out) ?? undefined;
  const rawLimit = one('limit');
  const limit = rawLimit === undefined ? DEFAULT_LIMIT : /^[0-9]{1,3}$/.test(rawLimit) ? Number(rawLimit) : 0;
  if (limit < 1 || limit > MAX_LIMIT) out.push({ razao: `limit deve ser um inteiro de 1 a ${MAX_LIMIT}.`, propriedade: 'limit', valor: rawLimit });
  const rawStatus = one('status');
  const status = NOTIFICATION_STATUSES.find((s) => s === rawStatus);
  if (rawStatus !== undefined && !status) out.push({ razao: `status deve ser um de ${NOTIFICATION_STATUSES.join(', ')}.`, propriedade: 'status', valor: rawStatus });
  const rawBefore = one('before');
  const before = rawBefore === undefined ? undefined : parseBefore(rawBefore);
  if (rawBefore !== undefined && !before) out.push({ razao: 'before deve ser o proximo de uma página anterior ou um instante RFC 3339.', propriedade: 'before', valor: rawBefore });
  if (out.length > 0) throw new ProblemError('RequisicaoInvalida', 'A consulta de notificações não respeita o formato.', out);
  return { limit, ...(status ? { status: status as NotificationStatus } : {}), ...(before ? { before } : {}) };
}

/** `<instant>` or `<instant>,<id>`; the instant re-serialised with its microseconds, so PostgreSQL reads only what we checked. */
function parseBefore(text: string): { at: string; id?: string } | undefined {
  const [instant, id, extra] = text.split(',');
  const parsed = parseRfc3339Instant(instant);
  if (!parsed || extra !== undefined || (id !== undefined && !ID.test(id))) return undefined;
  const ms = parsed.floor.getTime();
  if (ms < EARLIEST || ms > LATEST) return undefined;
  const at = parsed.floor.toISOString().replace('Z', `${parsed.beyondMillisecond.slice(0, 3).padEnd(3, '0')}Z`);
  return id === undefined ? { at } : { at, id };
}
