// Entry point for request bodies: untrusted JSON in, either a plain validated value or the list
// of violations out. Never throws (fuzzed input is expected), never touches prototypes.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Violacao } from '../problem';
import { flattenValidationErrors } from './flatten-errors';
import { sanitizeJson } from './sanitize-json';
import { objetoInvalido } from './violation-text';

export interface BodyValidationResult<T> {
  /** Present only when there are no violations: a PLAIN object (no class instances). */
  value?: T;
  violacoes: Violacao[];
}

/** Upper bound on the violations returned, so a hostile body cannot inflate the response. */
export const MAX_VIOLACOES = 100;

/**
 * Validates `body` against a DTO class. `root` names the body in violation paths (`cobv`).
 * Non-object bodies (null, arrays, primitives) yield a single violation on the root.
 */
export function validateBody<T extends object>(
  dtoClass: new () => T,
  body: unknown,
  root = 'cobv',
): BodyValidationResult<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { violacoes: [objetoInvalido(root, body)] };
  }
  try {
    const sanitized = sanitizeJson(body, root);
    const instance = plainToInstance(dtoClass, sanitized.value);
    const errors = validateSync(instance as object, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: true },
    });
    const violacoes = dedupeByPath([...sanitized.violacoes, ...flattenValidationErrors(errors, root)]).sort(
      byPath,
    );
    if (violacoes.length > 0) return { violacoes: violacoes.slice(0, MAX_VIOLACOES) };
    return { value: toPlainData(instance) as T, violacoes: [] };
  } catch {
    // Defensive: no known input gets here, but a 500 must never come out of shape checking.
    return { violacoes: [objetoInvalido(root, undefined)] };
  }
}

// One violation per member: the first (most specific) reason wins.
function dedupeByPath(violacoes: Violacao[]): Violacao[] {
  const seen = new Set<string | undefined>();
  return violacoes.filter((v) => {
    if (seen.has(v.propriedade)) return false;
    seen.add(v.propriedade);
    return true;
  });
}

// Deterministic order, independent of decorator order; indexes compare numerically ([2] < [10]).
function byPath(a: Violacao, b: Violacao): number {
  return (a.propriedade ?? '').localeCompare(b.propriedade ?? '', 'en', { numeric: true });
}

/** Deep copy of a validated DTO into plain objects, leaving out members that were not sent. */
function toPlainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlainData);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) out[key] = toPlainData(member);
  }
  return out;
}
