/** JSON with every object's keys sorted: equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const object = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(object).sort().map((k) => [k, object[k]]));
  });
}
