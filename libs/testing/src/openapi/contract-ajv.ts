import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { OpenApiDocument } from './official-spec';
import { isObject, JsonSchema } from './openapi-schema';

// Base URI under which the contract's components are registered, so `#/components/schemas/X`
// written anywhere resolves to the one copy Ajv compiles.
export const CONTRACT_ID = 'https://pix.bcb.gov.br/api-pix/2.9.0/openapi.json';

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

/** An Ajv instance that knows the contract's components and formats, compiling each schema once. */
export class ContractAjv {
  private readonly ajv: Ajv;
  private readonly compiled = new WeakMap<object, ValidateFunction>();
  private readonly byName = new Map<string, ValidateFunction>();

  constructor(private readonly spec: OpenApiDocument) {
    // strict: false because the contract carries keywords JSON Schema ignores (e.g. `maximum` on arrays).
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv, ['date', 'date-time', 'uri', 'email']);
    // OpenAPI's integer formats: int64 values are JSON integers, range-checked like int32.
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => isIntegerWithin(n, INT32) });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => isIntegerWithin(n, INT64) });
    this.ajv.addSchema({ $id: CONTRACT_ID, components: { schemas: spec.components.schemas } });
  }

  hasSchema(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.spec.components.schemas, name);
  }

  /** The validator of components/schemas/<name>. */
  named(name: string): ValidateFunction {
    let validate = this.byName.get(name);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${CONTRACT_ID}#/components/schemas/${name}` });
      this.byName.set(name, validate);
    }
    return validate;
  }

  /** The validator of a schema object taken from the (normalised) contract, e.g. a response's. */
  forSchema(schema: JsonSchema): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(absoluteRefs(schema) as JsonSchema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}


function isIntegerWithin(n: number, bound: number): boolean {
  return Number.isInteger(n) && n >= -bound && n < bound;
}

// A schema outside components/schemas is compiled on its own, so its local refs need the base URI.
function absoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? [key, CONTRACT_ID + value]
        : [key, absoluteRefs(value)],
    ),
  );
}

/** Ajv errors as "instancePath message (detail)", the root shown as "/". */
export function describeErrors(errors: ErrorObject[] | null | undefined, prefix = ''): string[] {
  const described = (errors ?? []).map((error) => {
    const where = `${prefix}${error.instancePath}` || '/';
    return `${where} ${error.message ?? error.keyword}${detail(error)}`;
  });
  return [...new Set(described)];
}

function detail(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum') return `: ${JSON.stringify(params['allowedValues'])}`;
  if (error.keyword === 'oneOf' && params['passingSchemas']) return ` (matched ${JSON.stringify(params['passingSchemas'])})`;
  return '';
}
