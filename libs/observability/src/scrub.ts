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
 * Field paths pino removes from every structured log line: credentials, documents, names and
 * the free-text fields of a charge (a payer's name may be anywhere in `devedor` or `infoPagador`).
 */
export const PINO_REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'secret',
  'client_secret',
  'password',
  'token',
  'access_token',
  '*.secret',
  '*.client_secret',
  '*.password',
  '*.token',
  '*.access_token',
  'cpf',
  'cnpj',
  'nome',
  '*.cpf',
  '*.cnpj',
  '*.nome',
  'devedor',
  '*.devedor',
  'infoPagador',
  '*.infoPagador',
  'solicitacaoPagador',
  '*.solicitacaoPagador',
  'body',
  '*.body',
  'violacoes',
  '*.violacoes',
];
