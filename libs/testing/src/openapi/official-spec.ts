import { readFileSync } from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { isObject, JsonSchema, toJsonSchema } from './openapi-schema';

// The unchanged BCB contract (Apache-2.0), vendored so the repository is self-contained.
export const OFFICIAL_SPEC_PATH = path.resolve(
  __dirname,
  '../../../contracts/spec/bcb-api-pix-2.9.0.openapi.yaml',
);

export interface MediaTypeObject {
  schema?: JsonSchema;
}
export interface ResponseObject {
  $ref?: string;
  description?: string;
  content?: Record<string, MediaTypeObject>;
}
export interface OperationObject {
  responses: Record<string, ResponseObject>;
  servers?: unknown[];
}
export type PathItemObject = { servers?: unknown[] } & Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    examples: Record<string, { summary?: string; value: unknown }>;
  } & Record<string, unknown>;
}

let cachedRaw: OpenApiDocument | undefined;
let cachedNormalised: OpenApiDocument | undefined;

/** The contract exactly as published (examples included), parsed once per process. */
export function loadRawOfficialSpec(): OpenApiDocument {
  cachedRaw ??= parse(readFileSync(OFFICIAL_SPEC_PATH, 'utf8')) as OpenApiDocument;
  return cachedRaw;
}

/**
 * The contract with every schema converted to JSON Schema and the project's standing readings of
 * its known defects applied. Examples are left as published. Do not mutate the result: it is shared.
 */
export function loadOfficialSpec(): OpenApiDocument {
  if (cachedNormalised) return cachedNormalised;
  const raw = loadRawOfficialSpec();
  const normalised = normaliseSchemasIn(structuredClone(raw)) as OpenApiDocument;
  const schemas = normalised.components.schemas;
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = toJsonSchema(schema) as JsonSchema;
  applyStandingReadings(schemas);
  applyResponseReadings(normalised);
  cachedNormalised = normalised;
  return normalised;
}

// Every `schema` slot outside components/schemas (responses, parameters, headers, request bodies).
function normaliseSchemasIn(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normaliseSchemasIn);
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') out[key] = value; // published data, not schemas
    else if (key === 'schema') out[key] = toJsonSchema(value);
    else out[key] = normaliseSchemasIn(value);
  }
  return out;
}

function applyStandingReadings(schemas: Record<string, JsonSchema>): void {
  // Reading (a), regex literals as patterns, is applied to every schema by toJsonSchema.

  // Reading (b): DadosRecebedor requires logradouro/cidade/uf/cep one level too high; they belong
  // to `recebedor`, whose own allOf already requires them, so the top-level list is dropped.
  const dadosRecebedor = schemas['DadosRecebedor'];
  expectDefect('DadosRecebedor', sameList(dadosRecebedor['required'], ['logradouro', 'cidade', 'uf', 'cep']));
  delete dadosRecebedor['required'];

  // Reading (c): WebhookCompleto says `cnpj` where the webhook's Pix key, `chave`, is meant. The key is
  // described like the `{chave}` path parameter of /webhook/{chave}: a string of at most 77 chars.
  const webhook = schemas['WebhookCompleto'];
  const properties = webhook['properties'] as Record<string, unknown>;
  expectDefect('WebhookCompleto', 'cnpj' in properties && !('chave' in properties));
  const { cnpj: _wrongKey, ...others } = properties;
  webhook['properties'] = { ...others, chave: { type: 'string', maxLength: 77 } };
  webhook['required'] = (webhook['required'] as string[]).map((name) => (name === 'cnpj' ? 'chave' : name));

  // Reading (d): the desconto `oneOf` of CobVValor has a first branch that requires nothing, so a
  // percentage discount ({modalidade: 3, valorPerc}) matches both branches and fails "exactly
  // one". The first branch is evidently the fixed-date one: it requires `descontoDataFixa`.
  const valor = schemas['CobVValor'] as any;
  const branches = valor?.properties?.desconto?.oneOf as JsonSchema[] | undefined;
  expectDefect('CobVValor', Array.isArray(branches) && branches[0]['required'] === undefined);
  branches![0]['required'] = ['descontoDataFixa'];

  // Reading (g): payload `location` fields say `format: uri` (which demands a scheme), while every
  // official example and the BR Code carry them scheme-less (`pix.example.com/qr/v2/...`). We
  // answer the BR Code's string, so a location is `host[:port]/path` with no scheme.
  const payloadLocation = schemas['PayloadLocation'] as any;
  expectDefect('PayloadLocation', payloadLocation?.properties?.location?.format === 'uri');
  schemeLessLocations(schemas);

  // Reading (h): CobVGerada requires `location`, yet DELETE /loc/{id}/txid says the charge then
  // "passará a não mais apresentar um location". So `location` is required while the charge has
  // a `loc` (ADR 12): an unlinked charge answers neither.
  const gerada = schemas['CobVGerada'];
  expectDefect('CobVGerada', Array.isArray(gerada['required']) && (gerada['required'] as string[]).includes('location'));
  gerada['required'] = (gerada['required'] as string[]).filter((name) => name !== 'location');
  gerada['dependencies'] = { loc: ['location'] };

  // Reading (i): a received Pix's txid (Pix, PixAutomatico, ParametrosConsultaPix) is allOf TxId
  // (26 to 35) and [a-zA-Z0-9]{1,35}, which together hold only from 26 on. The second was added
  // for a static QR code's txid (1 to 25): BCB's maintainer called the {26,35} of GET /pix?txid=
  // "um bug na regex. Deveria ser {1,35}" (bacen/pix-api#269). Read as 1 to 35 letters and digits.
  let pixTxids = 0;
  for (const name of ['Pix', 'PixAutomatico', 'ParametrosConsultaPix']) {
    const properties = schemas[name]?.['properties'] as Record<string, JsonSchema> | undefined;
    const branches = properties?.['txid']?.['allOf'] as JsonSchema[] | undefined;
    if (!properties || !Array.isArray(branches) || branches[0]?.['$ref'] !== '#/components/schemas/TxId' || branches[1]?.['pattern'] !== '[a-zA-Z0-9]{1,35}') continue;
    properties['txid'] = { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' };
    pixTxids++;
  }
  expectDefect('Pix.txid', pixTxids === 3);
}

const SCHEME_LESS_LOCATION = '^[A-Za-z0-9.-]+(:[0-9]{1,5})?/[\\x21-\\x7e]*$';

function schemeLessLocations(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(schemeLessLocations);
  if (!isObject(node)) return;
  const location = isObject(node['properties']) ? (node['properties'] as JsonSchema)['location'] : undefined;
  if (isObject(location) && location['format'] === 'uri') {
    delete location['format'];
    location['pattern'] = SCHEME_LESS_LOCATION;
  }
  Object.values(node).forEach(schemeLessLocations);
}

// Reading (e): the requirements answer PUT /webhook/{chave} with the registration
// (webhookUrl, chave, criacao), where the contract's 200 declares no body: we validate that body
// as WebhookCompleto. Reading (f): PixConsultados requires `cobs` (copied from the charge
// lists) where its list property is `pix`.
function applyResponseReadings(doc: OpenApiDocument): void {
  const put = (doc.paths as any)['/webhook/{chave}'].put.responses['200'];
  expectDefect('PUT /webhook/{chave} 200', put.content === undefined);
  put.content = { 'application/json': { schema: { $ref: '#/components/schemas/WebhookCompleto' } } };
  const pixList = doc.components.schemas['PixConsultados'];
  expectDefect('PixConsultados', sameList(pixList['required'], ['parametros', 'cobs']));
  pixList['required'] = ['parametros', 'pix'];
}

// The readings belong to 2.9.0: if a new contract fixed a defect, the reading must be revisited.
function expectDefect(schemaName: string, present: boolean): void {
  if (!present) throw new Error(`Known defect in ${schemaName} not found: revisit official-spec.ts`);
}

function sameList(value: unknown, expected: string[]): boolean {
  return Array.isArray(value) && value.length === expected.length && expected.every((v) => value.includes(v));
}
