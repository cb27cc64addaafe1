/**
 * The project's readings of the official contract's defects (ARCHITECTURE.md, ADR 4), applied in
 * OpenAPI 3.0 form to the document the API serves, so clients read what we actually answer. The
 * test validator applies the same readings in JSON Schema form (libs/testing/src/openapi).
 */
export function applyContractReadings(doc: any): void {
  const schemas = doc.components.schemas;
  // (a) Patterns written as regex literals ("/^\d{11}$/") mean the regex inside.
  unwrapRegexLiterals(doc);
  // (b) DadosRecebedor requires the address one level too high (recebedor's own allOf requires it).
  delete schemas.DadosRecebedor?.required;
  // (c) WebhookCompleto says `cnpj` where the webhook's Pix key, `chave`, is meant.
  const webhook = schemas.WebhookCompleto;
  if (webhook?.properties?.cnpj) {
    const { cnpj: _wrong, ...others } = webhook.properties;
    webhook.properties = { ...others, chave: { type: 'string', maxLength: 77, description: 'Chave Pix do webhook.' } };
    webhook.required = (webhook.required ?? []).map((n: string) => (n === 'cnpj' ? 'chave' : n));
  }
  // (d) CobVValor's first desconto branch is the fixed-date one: it requires descontoDataFixa.
  const branches = schemas.CobVValor?.properties?.desconto?.oneOf;
  if (Array.isArray(branches) && branches[0] && !branches[0].required) branches[0].required = ['descontoDataFixa'];
  // (g) Locations are scheme-less, the BR Code's own string (pix.example.com/qr/v2/cobv/...).
  schemeLessLocations(doc.components);
  // (h) A charge whose location was unlinked answers no `location` (ADR 12).
  if (Array.isArray(schemas.CobVGerada?.required)) schemas.CobVGerada.required = schemas.CobVGerada.required.filter((n: string) => n !== 'location');
  // (e) PUT /webhook/{chave} answers the registration; (f) PixConsultados lists `pix`, not `cobs`.
  const put = doc.paths['/webhook/{chave}']?.put?.responses?.['200'];
  if (put && !put.content) put.content = { 'application/json': { schema: { $ref: '#/components/schemas/WebhookCompleto' } } };
  if (Array.isArray(schemas.PixConsultados?.required)) schemas.PixConsultados.required = ['parametros', 'pix'];
  // (i) A received Pix's txid, and GET /pix's txid filter, is 1 to 35 letters and digits (a
  // static QR code's has 1 to 25): the allOf with TxId (26 to 35) is read as its second branch.
  for (const holder of [schemas.Pix?.properties, schemas.PixAutomatico?.properties, schemas.ParametrosConsultaPix?.properties, ...(doc.paths['/pix']?.get?.parameters ?? [])])
    if (holder?.txid?.allOf) holder.txid = { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' };
    else if (holder?.name === 'txid' && holder.schema?.allOf) holder.schema = { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' };
}

function unwrapRegexLiterals(node: any): void {
  if (Array.isArray(node)) return node.forEach(unwrapRegexLiterals);
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === 'pattern' && typeof value === 'string' && /^\/.*\/$/.test(value)) node[key] = value.slice(1, -1);
    else unwrapRegexLiterals(value);
  }
}

function schemeLessLocations(node: any): void {
  if (Array.isArray(node)) return node.forEach(schemeLessLocations);
  if (!node || typeof node !== 'object') return;
  const location = node.properties?.location;
  if (location && location.format === 'uri') {
    delete location.format;
    location.pattern = '^[A-Za-z0-9.-]+(:[0-9]{1,5})?/[\\x21-\\x7e]*$';
    location.description = `${location.description ?? ''} Sem esquema (host[:porta]/caminho), a mesma string do BR Code.`.trim();
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') schemeLessLocations(value);
}
