// Test-only: a deep comparison that also sees what toEqual forgives (member order, prototypes).

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v === 'bigint' ? `${v}n` : String(v));

/** Where `a` and `b` first differ, comparing member order, prototypes and -0 as well; undefined if nowhere. */
export function difference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b) ? undefined : `${path}: ${show(a)} vs ${show(b)}`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: different prototypes`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0001') !== kb.join('\u0001')) return `${path}: members [${ka.join(', ')}] vs [${kb.join(', ')}]`;
  for (const k of ka) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}
