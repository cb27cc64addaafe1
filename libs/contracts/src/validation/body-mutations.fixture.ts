// Test-only: near-valid bodies. A few mutations applied to a valid body at random places: wrong
// types, lengths one past a limit, broken patterns, members removed or added (Object.prototype's
// names, `__proto__` as an own key, other DTOs' names), reordered members, arrays and objects past
// the defensive copy's limits, deep nesting, -0, huge numbers, NUL and lone surrogates, and
// values JSON cannot carry (undefined, bigint, functions, Dates, null-prototype objects...).
import fc from 'fast-check';

type Container = Record<string | number, unknown>;
interface Slot {
  parent: Container;
  key: string | number;
}

class Instance {
  nome = 'x';
}

const deep = (levels: number): unknown => {
  let v: unknown = { fim: 1 };
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};
const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/** Replacement values: JSON ones near every rule of the contract, then values JSON cannot carry. */
export const REPLACEMENTS: (() => unknown)[] = [
  ...[null, true, false, 0, -0, 1, 2, 3, 6, 7, 8, 9, -1, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 1e308, -1e21, 5e-324]
    .map((v) => () => v),
  ...['', ' ', '0', '2', '02', '-0', ' 2', '2 ', '2.0', '1e1', '0x2', '+2', '99999999999', '12345678909', '1234567890', '56989000019563', '5698900001956a', '1.00', '0.00', '1.0', '01.00', '12345678901.00', '1,00', '-1.00', '2024-02-29', '2023-02-29', '2024-13-01', '2024-00-10', '0000-01-01', '9999-12-31', '2024-1-01', '2024-01-01T00:00:00Z', '\u0000', '\ud800', 'a\udc00', '😀', 'cob', 'cobv', 'COB', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'ATIVA', 'valueOf', '__proto__']
    .map((v) => () => v),
  ...[2, 3, 8, 9, 11, 14, 50, 51, 77, 78, 140, 141, 200, 201].flatMap((n) => [() => 'x'.repeat(n), () => '😀'.repeat(n), () => 'a\uFE0F'.repeat(n), () => '1'.repeat(n)]),
  () => [],
  () => [{}],
  () => [[]],
  () => [[{ nome: 'a', valor: 'b' }]],
  () => {},
  () => ({ a: 1 }),
  () => ['x'],
  () => [null],
  () => deep(13),
  () => deep(9),
  () => manyKeys(65),
  () => Array.from({ length: 65 }, () => ({ nome: 'a', valor: 'b' })),
  // Not JSON: the fast path must give up on all of these, or agree with the full path.
  () => undefined,
  () => NaN,
  () => Infinity,
  () => 1n,
  () => Symbol('s'),
  () => () => 1,
  () => new Date(0),
  () => new Map([['id', 1]]),
  () => new Set([1]),
  () => new String('x'),
  () => new Number(1),
  () => Object.create(null),
  () => Object.assign(Object.create(null), { id: 1, nome: 'a', valor: 'b' }),
  () => new Instance(),
  () => [, { nome: 'a', valor: 'b' }], // a hole: read as absent by some, undefined by others
  () => ({ then: () => 1 }),
];

/** Member names to add: prototype names, names of other levels, unusual keys. */
export const EXTRA_NAMES = [
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
  'then',
  'status',
  'cpf',
  'cnpj',
  'nome',
  'valor',
  'original',
  'modalidade',
  'data',
  'id',
  'txid',
  'extra',
  '',
  '0',
  'x'.repeat(300),
];

export interface Mutation {
  kind: number;
  at: number;
  pick: number;
}

export const mutations = fc.array(fc.record({ kind: fc.nat(), at: fc.nat(), pick: fc.nat() }), { minLength: 1, maxLength: 3 });

function slotsOf(value: unknown, out: Slot[], parent?: Slot): Slot[] {
  if (parent) out.push(parent);
  if (typeof value !== 'object' || value === null) return out;
  if (Object.getPrototypeOf(value) !== Object.prototype && !Array.isArray(value)) return out;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    slotsOf((value as Container)[key], out, { parent: value as Container, key });
  }
  return out;
}

const containers = (slots: Slot[], root: Container) => [root, ...slots.map((s) => s.parent[s.key]).filter((v): v is Container => typeof v === 'object' && v !== null && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype))];

const put = (target: Container, key: string | number, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

// Deep copy of plain objects and arrays (-0 and member order kept); anything else is shared.
// Not structuredClone: under jest it builds objects with another realm's prototypes.
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Container = {};
  for (const [k, v] of Object.entries(value)) put(out, k, copyOf(v));
  return out;
}

/** Applies `list` to a deep copy of `body`. */
export function mutate(body: Record<string, unknown>, list: Mutation[]): Record<string, unknown> {
  const root = copyOf(body) as Container;
  for (const { kind, at, pick } of list) {
    const slots = slotsOf(root, []);
    const slot = slots.length > 0 ? slots[at % slots.length] : undefined;
    const objects = containers(slots, root);
    const target = objects[at % objects.length];
    switch (kind % 7) {
      case 0:
      case 1: // replace a value
        if (slot) put(slot.parent, slot.key, REPLACEMENTS[pick % REPLACEMENTS.length]());
        break;
      case 2: // remove a member or an item
        if (slot && Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
        else if (slot) delete slot.parent[slot.key];
        break;
      case 3: // add a member (own, even `__proto__`)
        if (!Array.isArray(target)) put(target, EXTRA_NAMES[pick % EXTRA_NAMES.length], pick % 2 === 0 ? 1 : 'x');
        else target.push(copyOf(target[0] ?? {}));
        break;
      case 4: // reorder members, or repeat items (uniqueness, array limits)
        if (Array.isArray(target)) target.push(...Array.from({ length: [1, 2, 46, 47, 60, 61][pick % 6] }, () => copyOf(target[0] ?? {})));
        else {
          const entries = Object.entries(target);
          for (const [k] of entries) delete target[k];
          const rotate = entries.length > 0 ? pick % entries.length : 0;
          for (const [k, v] of [...entries.slice(rotate), ...entries.slice(0, rotate)].reverse()) put(target, k, v);
        }
        break;
      case 5: // wrap a value in an array or an object
        if (slot) put(slot.parent, slot.key, pick % 2 === 0 ? [slot.parent[slot.key]] : { v: slot.parent[slot.key] });
        break;
      default: // a value of the other JSON type: numbers as strings and back
        if (slot) {
          const v = slot.parent[slot.key];
          put(slot.parent, slot.key, typeof v === 'string' ? Number(v) : typeof v === 'number' ? String(v) : v);
        }
    }
  }
  return root as Record<string, unknown>;
}

/** True when `value` is what a JSON parser can produce (the fast path must then accept every valid body). */
export function isJsonLike(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && Object.keys(value).length === value.length && value.every(isJsonLike);
  return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isJsonLike);
}
