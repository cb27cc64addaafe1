// The full validation of a request body: a defensive copy, class-transformer, class-validator and
// the own-name member walk. It names every violation; `validateBody` calls it only for bodies its
// fast path does not accept, and the property test holds the fast path to it.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { MAX_VIOLACOES, Violacao } from '../problem';
import { flattenValidationErrors } from './flatten-errors';
import { sanitizeJson } from './sanitize-json';
import { campoNaoPermitido, childPath, objetoInvalido } from './violation-text';

export interface BodyValidationResult<T> {
  /** Present only when there are no violations: a PLAIN object (no class instances). */
  value?: T;
  violacoes: Violacao[];
}

/** Upper bound on the violations returned, so a hostile body cannot inflate the response. */
export { MAX_VIOLACOES };

/**
 * Validates `body` against a DTO class. `root` names the body in violation paths (`cobv`).
 * Non-object bodies (null, arrays, primitives) yield a single violation on the root.
 */
export function validateBodyFully<T extends object>(
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
      // The target names the member's DTO, whose decorators say what it expects (expected-format.ts).
      validationError: { target: true, value: true },
    });
    const unknown: Violacao[] = [];
    findUnknownMembers(sanitized.value, instance, root, unknown);
    const violacoes = dedupeByPath([...sanitized.violacoes, ...unknown, ...flattenValidationErrors(errors, root)]).sort(
      byPath,
    );
    if (violacoes.length > 0) return { violacoes: violacoes.slice(0, MAX_VIOLACOES) };
    return { value: toPlainData(instance) as T, violacoes: [] };
  } catch {
    // Defensive: no known input gets here, but a 500 must never come out of shape checking.
    return { violacoes: [objetoInvalido(root, undefined)] };
  }
}

/**
 * Members the DTO does not declare, found by OWN property name. class-validator's whitelist
 * looks names up on a plain object, so `valueOf`, `hasOwnProperty` & co. pass it as "declared";
 * class-transformer then skips them silently. Walks the sent value beside the DTO instance.
 */
function findUnknownMembers(sent: unknown, instance: unknown, path: string, out: Violacao[]): void {
  if (Array.isArray(sent)) {
    if (Array.isArray(instance)) sent.forEach((item, i) => findUnknownMembers(item, instance[i], childPath(path, i), out));
    return;
  }
  if (typeof sent !== 'object' || sent === null || typeof instance !== 'object' || instance === null) return;
  const dto = instance.constructor as DtoClass | undefined;
  if (dto === undefined || (dto as unknown) === Object) return; // not a DTO: class-validator reports the type
  const declared = declaredMembers(dto);
  for (const [key, member] of Object.entries(sent)) {
    if (!declared.has(key)) out.push(campoNaoPermitido(childPath(path, key), member));
    else findUnknownMembers(member, (instance as Record<string, unknown>)[key], childPath(path, key), out);
  }
}

type DtoClass = abstract new (...args: never[]) => unknown;
const declaredCache = new Map<DtoClass, Set<string>>();
function declaredMembers(dto: DtoClass): Set<string> {
  let names = declaredCache.get(dto);
  if (!names) {
    names = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName));
    declaredCache.set(dto, names);
  }
  return names;
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
export function toPlainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlainData);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  // Object.keys, not entries: every valid body passes here, and a pair per member is garbage.
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = toPlainData(member);
  }
  return out;
}
