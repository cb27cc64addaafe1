import { parseRfc3339, ProblemError, unknownMemberViolations, type Violacao } from '@pix/contracts';
import { NOTIFICATION_STATUSES, type ResendSelector } from '@pix/webhook-delivery';

const MAX_ITEMS = 1000;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const END_TO_END_ID = /^[a-zA-Z0-9]{32}$/;

/**
 * Body of POST /notifier/resend: `{ ids?, endToEndIds?, status?, inicio?, fim? }`, each checked,
 * nothing else allowed; `status` lets one call resend every dead one (of a period). A value that is not what it should be is refused, never read as "absent" (which
 * could widen a resend to far more notifications than the operator meant).
 */
export function parseResendBody(body: unknown): ResendSelector {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ProblemError('RequisicaoInvalida', 'Envie um objeto JSON com ids, endToEndIds ou um período (inicio, fim).');
  const out: Violacao[] = unknownMemberViolations(body, ['ids', 'endToEndIds', 'status', 'inicio', 'fim'], 'body');
  const b = body as Record<string, unknown>;
  const list = (name: 'ids' | 'endToEndIds', pattern: RegExp) => {
    const v = Object.prototype.hasOwnProperty.call(b, name) ? b[name] : undefined;
    if (v === undefined) return undefined;
    if (Array.isArray(v) && v.length > 0 && v.length <= MAX_ITEMS && v.every((x) => typeof x === 'string' && pattern.test(x))) return v as string[];
    out.push({ razao: `${name} deve ser uma lista de 1 a ${MAX_ITEMS} identificadores válidos.`, propriedade: `body.${name}` });
    return undefined;
  };
  const instant = (name: 'inicio' | 'fim') => {
    const v = Object.prototype.hasOwnProperty.call(b, name) ? b[name] : undefined;
    if (v === undefined) return undefined;
    const date = typeof v === 'string' ? parseRfc3339(v) : null;
    if (!date) out.push({ razao: `${name} deve ser um instante RFC 3339.`, propriedade: `body.${name}` });
    return date ?? undefined;
  };
  const rawStatus = Object.prototype.hasOwnProperty.call(b, 'status') ? b.status : undefined;
  const status = NOTIFICATION_STATUSES.find((s) => s === rawStatus);
  if (rawStatus !== undefined && !status) out.push({ razao: `status deve ser um de ${NOTIFICATION_STATUSES.join(', ')}.`, propriedade: 'body.status' });
  const selector: ResendSelector = { ids: list('ids', ID), endToEndIds: list('endToEndIds', END_TO_END_ID), status, from: instant('inicio'), to: instant('fim') };
  // An empty range would answer 202 {"reenviadas":0} to a swapped inicio/fim: refused as the listings refuse it.
  if (selector.from && selector.to && selector.to.getTime() < selector.from.getTime())
    out.push({ razao: 'O instante fim é anterior ao instante inicio.', propriedade: 'body.fim' });
  if (out.length > 0) throw new ProblemError('RequisicaoInvalida', 'O pedido de reenvio não respeita o formato.', out);
  if (!selector.ids && !selector.endToEndIds && !selector.status && !selector.from && !selector.to)
    throw new ProblemError('RequisicaoInvalida', 'Informe ids, endToEndIds, status ou um período (inicio, fim).');
  return selector;
}

/** What a resend asked for, for its log line: ids named (the first few), status and period. */
export function describeResend(selector: ResendSelector): string {
  const named = (what: string, list: string[] | undefined) => (list ? [`${what} ${list.slice(0, 3).join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''}`] : []);
  return [
    ...named('ids', selector.ids),
    ...named('endToEndIds', selector.endToEndIds),
    ...(selector.status ? [`status ${selector.status}`] : []),
    ...(selector.from ? [`from ${selector.from.toISOString()}`] : []),
    ...(selector.to ? [`until ${selector.to.toISOString()}`] : []),
  ].join('; ');
}
