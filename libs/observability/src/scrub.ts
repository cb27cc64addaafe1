/**
 * Free text about to be logged (messages, error stacks) with credentials and personal data taken
 * out. Structured fields are redacted by path (see PINO_REDACT_PATHS); this catches what code
 * wrote into a sentence. Over-redacting an innocent 11- or 14-character number is the price.
 */
const RULES: [RegExp, string][] = [
  // Authorization schemes and anything token-shaped.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, 'whsec_[redacted]'],
  // key=value and "key":"value" forms of secrets.
  [/\b(client_secret|secret|password|senha|token|access_token|authorization)("?\s*[:=]\s*"?)([^\s"',&;]+)/gi, '$1$2[redacted]'],
  // URLs in free text: userinfo and query strings go (receivers authenticate callbacks with query tokens).
  [/\b(https?:\/\/)[^\s/?#@"'<>]+@/gi, '$1'],
  // A sentence's closing punctuation after the query is kept.
  [/\b(https?:\/\/[^\s?#"'<>]*)\?[^\s"'<>]*?(?=[.,;:)]?(?:[\s"'<>]|$))/gi, '$1?…'],
  // CNPJ (numeric or alphanumeric, with or without punctuation), then CPF.
  [/\b\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}\b/g, '[cnpj]'],
  [/\b(?=[0-9A-Z]{12}\d{2}\b)(?=[A-Z]*\d)[0-9A-Z]{12}\d{2}\b/g, '[cnpj]'],
  [/\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, '[cpf]'],
  [/\b\d{11}\b/g, '[cpf]'],
];

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Field names removed from every structured log line, at any of the first four levels:
 * credentials, documents, names and the free-text fields of a charge (a payer's name may be
 * anywhere in `devedor` or `infoPagador`). Done here rather than by pino's `redact` with
 * wildcard paths, which cost ~20 µs per line: a tenth of a request (issue 11's profile).
 */
const REDACTED = new Set([
  'authorization',
  'cookie',
  'secret',
  'client_secret',
  'password',
  'token',
  'access_token',
  'cpf',
  'cnpj',
  'nome',
  'devedor',
  'infoPagador',
  'solicitacaoPagador',
  'body',
  'violacoes',
]);
const CENSOR = '[redacted]';
const MAX_DEPTH = 4;

/** `fields` with every REDACTED member censored; the same object when there is nothing to censor. */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return needsRedaction(fields, 1) ? (redactValue(fields, 1) as Record<string, unknown>) : fields;
}

function needsRedaction(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  for (const [key, member] of Object.entries(value)) {
    if (REDACTED.has(key) || needsRedaction(member, depth + 1)) return true;
  }
  return false;
}

function redactValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) out[key] = REDACTED.has(key) ? CENSOR : redactValue(member, depth + 1);
  return out;
}
