import { MAX_VIOLACOES, Violacao } from '../problem';
import { campoNaoPermitido, childPath } from './violation-text';

/**
 * Violations for the members of `body` that are not in `allowed`, by OWN name: a name like
 * `valueOf` or `hasOwnProperty` is looked up in the list, never on the object's prototype.
 * At most MAX_VIOLACOES (a problem lists no more). `root` '' names members bare (`webhookUrl`).
 */
export function unknownMemberViolations(body: object, allowed: readonly string[], root: string): Violacao[] {
  const known = new Set(allowed);
  const out: Violacao[] = [];
  for (const key of Object.keys(body)) {
    if (known.has(key)) continue;
    out.push(campoNaoPermitido(root === '' ? childPath('', key).slice(1) : childPath(root, key), (body as Record<string, unknown>)[key]));
    if (out.length >= MAX_VIOLACOES) break;
  }
  return out;
}

/** An own member's value; undefined when absent or only inherited. */
export function ownMember(body: object, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}
