import type { Violation } from '../errors';

/** Where notifications may go: production allows only https; local mode also http and localhost. */
export interface PoliticaWebhook {
  permitirHttp: boolean;
}

// Visible ASCII but the backslash: anything else (controls, CR/LF, spaces, zero-width, bidi
// marks, other non-ASCII) is either invisible to the person reading the URL or repaired by the
// parser. International host names travel as punycode, non-ASCII paths percent-encoded.
const ALLOWED_CHARACTERS = /^[\x21-\x5b\x5d-\x7e]+$/;
const SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([/?][^#]*)?$/;
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::([1-9][0-9]{0,4}))?$/;
// RFC 3986 path and query: unreserved, sub-delims, ':', '@', '/', '?' and %XX escapes only (the
// contract's `format: uri`); the WHATWG parser lets a stray '%', '|' or '^' through unchanged.
const PATH_AND_QUERY = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;

/**
 * A webhook URL is accepted only as an absolute http(s) URL that the WHATWG URL parser reads
 * WITHOUT repairing it: what is stored is exactly where notifications go, byte for byte. No
 * user info (credentials in a URL end up in logs), no fragment, a host, a port 1..65535 written
 * plainly. The check parses and compares; no regex alone decides what a URL means.
 */
export function webhookUrlViolations(raw: string, politica: PoliticaWebhook): Violation[] {
  const bad = (razao: string): Violation[] => [{ razao, propriedade: 'webhook.webhookUrl', valor: printable(raw) }];
  if (!ALLOWED_CHARACTERS.test(raw)) return bad('O campo webhookUrl contém espaços, caracteres de controle, invisíveis, não ASCII ou barras invertidas.');
  if (raw.includes('#')) return bad('O campo webhookUrl não pode conter fragmento (#).');
  const shape = SHAPE.exec(raw);
  if (!shape) return bad('O campo webhookUrl não é uma URL absoluta http(s)://host/caminho.');
  const [, scheme, authority, rest = ''] = shape;
  if (!PATH_AND_QUERY.test(rest)) return bad('O campo webhookUrl tem no caminho ou na consulta caracteres que uma URI não admite (RFC 3986), ou um % que não inicia um escape %XX.');
  if (authority.includes('@')) return bad('O campo webhookUrl não pode conter credenciais.');
  const hostPort = AUTHORITY.exec(authority);
  if (!hostPort || Number(hostPort[2] ?? 1) > 65535) return bad('O campo webhookUrl deve ter um host e, se houver, uma porta de 1 a 65535.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return bad('O campo webhookUrl não é uma URL válida.');
  }
  const protocol = `${scheme.toLowerCase()}:`;
  if (protocol !== 'https:' && !(politica.permitirHttp && protocol === 'http:')) return bad('O campo webhookUrl deve usar https.');
  const port = hostPort[2] ?? '';
  const repaired =
    url.protocol !== protocol ||
    url.hostname !== hostPort[1].toLowerCase() ||
    (url.port !== port && !(url.port === '' && port === (protocol === 'https:' ? '443' : '80'))) ||
    url.pathname + url.search !== (rest === '' || rest.startsWith('?') ? `/${rest}` : rest);
  if (repaired) return bad('O campo webhookUrl não está na forma canônica (o host, a porta ou o caminho seriam reescritos pelo parser de URL).');
  return [];
}

/** The refused value, shown without the bytes that made it unsafe. */
const printable = (raw: string) => raw.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 200);
