import { Violacao } from '../problem';
import { campoNaoPermitido, childPath } from './violation-text';

/**
 * Violations for the members of `body` that are not in `allowed`, by OWN name: a name like
 * `valueOf` or `hasOwnProperty` is looked up in the list, never on the object's prototype.
 */
export function unknownMemberViolations(body: object, allowed: readonly string[], root: string): Violacao[] {
  const known = new Set(allowed);
  return Object.entries(body)
    .filter(([key]) => !known.has(key))
    .map(([key, value]) => campoNaoPermitido(childPath(root, key), value));
}

/** An own member's value; undefined when absent or only inherited. */
export function ownMember(body: object, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}
