// Turns OpenAPI 3.0 "Schema Objects" into plain JSON Schema that Ajv compiles. The walk is
// keyword-aware (it only descends where a sub-schema can be), so a property that happens to be
// called `example` or `xml` is never mistaken for the keyword of the same name.

export type JsonSchema = { [keyword: string]: unknown };

// OpenAPI-only annotations that JSON Schema either lacks or Ajv would misread.
const DROPPED_KEYWORDS = new Set([
  'nullable', // rewritten into `type: [..., 'null']` below
  'readOnly', // responses may carry readOnly fields and required ones stay required (OAS 3.0.3 §4.7.24)
  'writeOnly', // dropped from `required` below: a response never has to carry them
  'example',
  'examples',
  'xml',
  'externalDocs',
  'discriminator', // a mapping hint only; oneOf/anyOf alongside it still does the validating
]);

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'oneOf', 'anyOf']);
const SINGLE_SCHEMAS = new Set(['items', 'additionalProperties', 'not']);

/** Regex literals such as "/^\\d{11}$/" are written in the contract where a pattern is meant. */
export function unwrapRegexLiteral(pattern: string): string {
  // Reading (a): "/^\d{11}$/" means ^\d{11}$ (the slashes are JavaScript syntax, not pattern).
  const literal = /^\/(.*)\/$/s.exec(pattern);
  return literal ? literal[1] : pattern;
}

export function toJsonSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(keyword) || keyword.startsWith('x-')) continue;
    if (SCHEMA_MAPS.has(keyword) && isObject(value)) out[keyword] = mapValues(value, toJsonSchema);
    else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) out[keyword] = value.map(toJsonSchema);
    else if (SINGLE_SCHEMAS.has(keyword)) out[keyword] = toJsonSchema(value);
    else if (keyword === 'pattern' && typeof value === 'string') out[keyword] = unwrapRegexLiteral(value);
    else out[keyword] = value;
  }
  dropWriteOnlyFromRequired(schema, out);
  return schema['nullable'] === true ? allowNull(out) : out;
}

function dropWriteOnlyFromRequired(original: JsonSchema, out: JsonSchema): void {
  const properties = original['properties'];
  if (!Array.isArray(out['required']) || !isObject(properties)) return;
  const writeOnly = Object.keys(properties).filter((name) => {
    const property = properties[name];
    return isObject(property) && property['writeOnly'] === true;
  });
  if (writeOnly.length > 0) out['required'] = out['required'].filter((name) => !writeOnly.includes(name));
}

// `nullable: true` in OAS 3.0 is `null` being one more accepted type in JSON Schema.
function allowNull(schema: JsonSchema): JsonSchema {
  const withNull: JsonSchema = { ...schema };
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) withNull['enum'] = [...schema['enum'], null];
  if (typeof schema['type'] === 'string') return { ...withNull, type: [schema['type'], 'null'] };
  if (Array.isArray(schema['type'])) return { ...withNull, type: [...schema['type'], 'null'] };
  return { anyOf: [schema, { type: 'null' }] }; // no type to extend (e.g. only allOf/$ref)
}

export function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(object: JsonSchema, fn: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]));
}
