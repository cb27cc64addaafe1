import { ContractAjv, describeErrors } from './contract-ajv';
import { loadOfficialSpec, MediaTypeObject, OpenApiDocument, ResponseObject } from './official-spec';
import { PathMatch, PathMatcher, SpecServer } from './path-matcher';

export interface ResponseUnderTest {
  method: string;
  /** Concrete request path without the base path, e.g. `/cobv/abc...`; a query string is ignored. */
  path: string;
  status: number;
  /** The Content-Type header as sent (parameters such as charset are ignored); omit to infer. */
  contentType?: string;
  /** Parsed JSON, raw text (parsed here), or undefined / '' for an empty body. */
  body?: unknown;
  /** 'location' for the payload-location endpoints, which live on their own server. */
  server?: SpecServer;
}

export interface ValidationResult {
  valid: boolean;
  errors: string[];
}

export interface ResponseValidator {
  validateResponse(response: ResponseUnderTest): ValidationResult;
  validateSchema(schemaName: string, value: unknown): ValidationResult;
  /** Throws an Error listing every violation, so a failing test says why. */
  expectValidResponse(response: ResponseUnderTest): void;
}

// Error types as the contract's description defines them; enforced where a status is undocumented.
export const PROBLEM_TYPE = /^https:\/\/pix\.bcb\.gov\.br\/api\/v2\/error\/[A-Za-z]+$/;
const JSON_MEDIA_TYPES = ['application/json', 'application/problem+json'];

let shared: { ajv: ContractAjv; matcher: PathMatcher; spec: OpenApiDocument } | undefined;

/** Cheap to call repeatedly: the contract is loaded, and each schema compiled, once per process. */
export function createResponseValidator(): ResponseValidator {
  if (!shared) {
    const spec = loadOfficialSpec();
    shared = { spec, ajv: new ContractAjv(spec), matcher: new PathMatcher(spec) };
  }
  const { ajv, matcher, spec } = shared;

  function validateSchema(schemaName: string, value: unknown): ValidationResult {
    if (!ajv.hasSchema(schemaName)) throw new Error(`components/schemas/${schemaName} is not in the contract`);
    const validate = ajv.named(schemaName);
    return validate(value) ? ok() : fail(describeErrors(validate.errors));
  }

  function validateResponse(response: ResponseUnderTest): ValidationResult {
    const found = matcher.match(response.method, response.path, response.server);
    if (found.kind !== 'operation') return undocumented(response, describeMiss(response, found));
    const { template, method, operation } = found.match;
    const where = `${method.toUpperCase()} ${template}`;
    const declared = lookUpResponse(operation.responses, response.status);
    if (!declared) {
      const documented = Object.keys(operation.responses).join(', ');
      return undocumented(response, `${response.status} is not documented for ${where} (documented: ${documented})`);
    }
    return validateAgainst(resolve(declared), response, `${where} ${response.status}`);
  }

  function resolve(response: ResponseObject): ResponseObject {
    const name = response.$ref?.replace('#/components/responses/', '');
    return name ? spec.components.responses[name] : response;
  }

  function validateAgainst(declared: ResponseObject, response: ResponseUnderTest, where: string): ValidationResult {
    const content = declared.content ?? {};
    if (Object.keys(content).length === 0) {
      return isEmpty(response.body) ? ok() : fail([`${where} declares no content, but the body is not empty`]);
    }
    const media = pickMediaType(content, response.contentType);
    if (typeof media === 'string') return fail([`${where}: ${media}`]);
    if (!media.schema) return ok(); // declared content without a schema constrains nothing
    const body = parseBody(response.body, media.type);
    if (!body.ok) return fail([`${where}: ${body.error}`]);
    const validate = ajv.forSchema(media.schema);
    return validate(body.value) ? ok() : fail(describeErrors(validate.errors));
  }

  // A 4xx/5xx outside the operation's list is tolerated only as a well-formed Pix problem.
  function undocumented(response: ResponseUnderTest, reason: string): ValidationResult {
    if (response.status < 400 || response.status > 599) return fail([reason]);
    const body = parseBody(response.body, 'application/problem+json');
    if (!body.ok) return fail([reason, body.error]);
    const problem = validateSchema('Problema', body.value);
    const type = (body.value as { type?: unknown } | null)?.type;
    const errors = problem.errors.map((e) => `${e} (as Problema)`);
    if (typeof type === 'string' && !PROBLEM_TYPE.test(type)) errors.push(`/type must match ${PROBLEM_TYPE.source}`);
    return errors.length === 0 ? ok() : fail([reason, ...errors]);
  }

  function expectValidResponse(response: ResponseUnderTest): void {
    const result = validateResponse(response);
    if (result.valid) return;
    const heading = `${response.method.toUpperCase()} ${response.path} -> ${response.status} violates API Pix 2.9.0:`;
    const body = (JSON.stringify(response.body, null, 2) ?? 'undefined').slice(0, 4000); // enough to recognise it
    throw new Error([heading, ...result.errors.map((e) => `  - ${e}`), 'Body:', body].join('\n'));
  }

  return { validateResponse, validateSchema, expectValidResponse };
}

function describeMiss(response: ResponseUnderTest, found: Exclude<PathMatch, { kind: 'operation' }>): string {
  const request = `${response.method.toUpperCase()} ${response.path}`;
  if (found.kind === 'path-not-documented') return `${request}: no path of the contract matches`;
  return `${request}: ${found.template} documents only ${found.methods.join(', ')}`;
}

// Exact status first, then the OpenAPI range ("4XX"), then `default`.
function lookUpResponse(responses: Record<string, ResponseObject>, status: number): ResponseObject | undefined {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses['default'];
}

function pickMediaType(
  content: Record<string, MediaTypeObject>,
  contentType: string | undefined,
): (MediaTypeObject & { type: string }) | string {
  const declared = Object.keys(content);
  const sent = contentType?.split(';')[0].trim().toLowerCase();
  const type = sent ?? declared.find((t) => JSON_MEDIA_TYPES.includes(t)) ?? declared[0];
  if (!content[type]) return `Content-Type ${sent} is not declared (declared: ${declared.join(', ')})`;
  return { ...content[type], type };
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseBody(body: unknown, mediaType: string): Parsed {
  if (isEmpty(body)) return { ok: false, error: 'the body is empty, but the contract declares content' };
  if (Buffer.isBuffer(body)) return parseBody(body.toString('utf8'), mediaType);
  if (typeof body !== 'string') return { ok: true, value: body };
  // application/jose: a compact JWS whose payload segment is the JSON the schema describes.
  const text = mediaType === 'application/jose' ? decodeJwsPayload(body) : body;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: `the body is not JSON: ${body.slice(0, 80)}` };
  }
}

function decodeJwsPayload(jws: string): string {
  const parts = jws.split('.');
  return parts.length === 3 ? Buffer.from(parts[1], 'base64url').toString('utf8') : jws;
}

function isEmpty(body: unknown): boolean {
  return body === undefined || body === '' || (Buffer.isBuffer(body) && body.length === 0);
}

const ok = (): ValidationResult => ({ valid: true, errors: [] });
const fail = (errors: string[]): ValidationResult => ({ valid: false, errors });
