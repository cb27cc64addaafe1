import { ProblemError } from '@pix/contracts';

/**
 * The first `charset` a Content-Type declares other than UTF-8, or undefined. RFC 9110 §8.3.1:
 * parameters follow `;`, names and charset values are case-insensitive, a value is a token or a
 * quoted string (which may hold `;` and backslash escapes). JSON is UTF-8 (RFC 8259 §8.1), and
 * forms are read as UTF-8 too: a body declared in another charset would be read as text its
 * sender did not write. Aliases (`utf8`) are not the registered name and are refused too.
 */
export function foreignCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const params = parameters(contentType);
  // An unterminated quoted string hides where a charset would be: refused as it stands.
  if (params === undefined) return contentType.slice(contentType.indexOf(';') + 1).trim();
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const raw = param.slice(eq + 1).trim();
    const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (value.toLowerCase() !== 'utf-8') return value;
  }
  return undefined;
}

/** 415 (RequisicaoInvalida, as for an encoded body) when the body declares a charset not UTF-8. */
export function charsetRefusal(contentType: string | undefined): ProblemError | undefined {
  const charset = foreignCharset(contentType);
  if (charset === undefined) return undefined;
  const shown = charset.slice(0, 40).replace(/[^\x20-\x7e]/g, '?');
  return new ProblemError('RequisicaoInvalida', `Charset não suportado (${shown}): envie o corpo em UTF-8, sem charset ou com charset=utf-8.`, [], 415);
}

/** The parameters after the media type, split on `;` outside quoted strings; undefined if a quote is left open. */
function parameters(contentType: string): string[] | undefined {
  const out: string[] = [];
  let start = contentType.indexOf(';');
  if (start < 0) return out;
  let quoted = false;
  for (let i = start + 1; i < contentType.length; i++) {
    const c = contentType[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ';' && !quoted) {
      out.push(contentType.slice(start + 1, i));
      start = i;
    }
  }
  if (quoted) return undefined;
  out.push(contentType.slice(start + 1));
  return out;
}
