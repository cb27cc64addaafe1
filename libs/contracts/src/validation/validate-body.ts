// Entry point for request bodies: untrusted JSON in, either a plain validated value or the list
// of violations out. Never throws (fuzzed input is expected), never touches prototypes.
// Most bodies are valid, so they take a fast path compiled once per DTO from class-validator's
// metadata (fast-validation.ts), about a tenth of the full path's cost; every body it does not
// accept takes the full path (full-validation.ts), which names the violations. Results are the
// same for every input (validate-body.property.spec.ts).
import { validateBodyFully, type BodyValidationResult } from './full-validation';
import { validateFast } from './fast-validation';

export { MAX_VIOLACOES, validateBodyFully, type BodyValidationResult } from './full-validation';

/**
 * Validates `body` against a DTO class. `root` names the body in violation paths (`cobv`).
 * Non-object bodies (null, arrays, primitives) yield a single violation on the root.
 */
export function validateBody<T extends object>(dtoClass: new () => T, body: unknown, root = 'cobv'): BodyValidationResult<T> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const value = validateFast(dtoClass, body);
    if (value !== undefined) return { value, violacoes: [] };
  }
  return validateBodyFully(dtoClass, body, root);
}
