// Defensive copy of an untrusted JSON value before class-transformer sees it. It bounds the work
// done on hostile input (depth, array length, key count), drops keys that could reach a
// prototype (`__proto__`, `constructor`, `prototype`) and builds fresh plain objects, so nothing
// downstream can mutate or observe Object.prototype. Each cut made is reported as a violation.
import { Violacao } from '../problem';
import { campoInvalido, campoNaoPermitido, childPath, objetoInvalido } from './violation-text';

/**
 * Far above anything a legitimate body needs (cobv is 5 levels deep, its largest array has 50
 * items, its largest object ~10 members); cutting there never turns an invalid body valid.
 */
export const JSON_LIMITS = { maxDepth: 12, maxArrayItems: 64, maxKeys: 64 } as const;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface SanitizedJson {
  value: unknown;
  violacoes: Violacao[];
}

export function sanitizeJson(input: unknown, rootPath: string): SanitizedJson {
  const violacoes: Violacao[] = [];
  const value = copy(input, rootPath, 0, violacoes);
  return { value, violacoes };
}

function copy(value: unknown, path: string, depth: number, out: Violacao[]): unknown {
  if (value === null || value === undefined) return value;
  const kind = typeof value;
  if (kind === 'string' || kind === 'number' || kind === 'boolean') return value;
  if (kind !== 'object') return null; // bigint, symbol, function: not JSON, fails any type check
  if (depth >= JSON_LIMITS.maxDepth) {
    out.push(campoInvalido(path, value));
    return null;
  }
  if (Array.isArray(value)) {
    if (value.length > JSON_LIMITS.maxArrayItems) out.push(objetoInvalido(path, value));
    const items = value.slice(0, JSON_LIMITS.maxArrayItems);
    return items.map((item, i) => copy(item, childPath(path, i), depth + 1, out));
  }
  const keys = Object.keys(value);
  if (keys.length > JSON_LIMITS.maxKeys) out.push(objetoInvalido(path, value));
  const result: Record<string, unknown> = {};
  for (const key of keys.slice(0, JSON_LIMITS.maxKeys)) {
    const member = (value as Record<string, unknown>)[key];
    if (FORBIDDEN_KEYS.has(key)) {
      out.push(campoNaoPermitido(childPath(path, key), member));
      continue;
    }
    // defineProperty: never goes through a setter, whatever the key.
    Object.defineProperty(result, key, {
      value: copy(member, childPath(path, key), depth + 1, out),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}
