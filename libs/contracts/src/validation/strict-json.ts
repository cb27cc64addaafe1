// RFC 8259 JSON, read strictly: what JSON.parse accepts but a payments API must not silently
// reinterpret is refused here, at the edge, with the member's path. JSON.parse keeps the last of
// duplicate members, recurses until the stack overflows, and hands NUL and lone surrogates on to
// PostgreSQL (which refuses NUL and turns lone surrogates into U+FFFD), and other controls on to
// a payer's screen and our logs.

/** Nesting far above any request of the contract (cobv is 5 levels deep). */
export const MAX_JSON_DEPTH = 64;

/**
 * Values a text may hold: one per 8 bytes, and 10,000 in any text. The contract's densest part
 * (`{"nome":"a","valor":"b"}` in infoAdicionais) takes 8.3 bytes a value; 4 MiB of `[{},{},…]`
 * is 1.4 million objects, ~100 MB of heap and ~1 s of the event loop, read before the token is
 * checked (memory audit).
 */
export const maxJsonValues = (text: string): number => Math.max(10_000, Math.floor(text.length / 8));

export type StrictJsonFault = 'syntax' | 'duplicate' | 'depth' | 'proto' | 'text' | 'number' | 'size';

export class StrictJsonError extends Error {
  constructor(
    readonly fault: StrictJsonFault,
    /** Member path from the body's root (`valor.multa`, `cobsv[2].txid`); '' for the root. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses `text`; throws StrictJsonError. Members are own data properties, `__proto__` refused.
 * `refusedText`: which texts are refused (a request's: hasRefusedText; a cash-in's, whose money
 * has already moved: hasUnstorableText only).
 */
export function parseStrictJson(text: string, maxDepth = MAX_JSON_DEPTH, refusedText: (s: string) => boolean = hasRefusedText, maxValues = maxJsonValues(text)): unknown {
  const parser = new Parser(text, maxDepth, refusedText, maxValues);
  parser.skipWhitespace();
  const value = parser.value('', null, 0);
  parser.skipWhitespace();
  if (parser.pos !== text.length) parser.fail('syntax', '', 'conteúdo após o fim do JSON');
  return value;
}

/**
 * Text a request may not carry: a control character (C0 U+0000-U+001F, DEL, C1 U+0080-U+009F)
 * or a lone surrogate. Every text of the contract is a single line shown to a payer by their bank
 * or written to logs (ADR 10); NUL and lone surrogates cannot even be stored.
 */
export const hasRefusedText = (s: string): boolean => hasLoneSurrogateOr(s, (c) => c < 0x20 || (c >= 0x7f && c <= 0x9f));

/**
 * U+0000 or a UTF-16 surrogate without its pair: text no database column can keep as sent. What
 * Kafka cash-ins are held to: a payer's infoPagador comes from another bank with money already
 * moved, so only what cannot be stored is refused there.
 */
export const hasUnstorableText = (s: string): boolean => hasLoneSurrogateOr(s, (c) => c === 0);

/** Whether `s` has a code unit `refused` names, or a UTF-16 surrogate without its pair. */
function hasLoneSurrogateOr(s: string, refused: (c: number) => boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (refused(c)) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const memberPath = (parent: string, key: string) => (parent === '' ? key : `${parent}.${key}`);
// A value's path is `parent` and its member name, joined only when needed: by an object or array
// (its members' parent) or by a refusal; most values are texts and numbers that pass.
const pathOf = (parent: string, key: string | null) => (key === null ? parent : memberPath(parent, key));
// Sticky, shared (the parser never re-enters itself): no regular expression made per number.
// Fraction and exponent captured: an integer written without them is exactly what it says.
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Parser {
  pos = 0;
  private values = 0;
  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly refusedText: (s: string) => boolean,
    private readonly maxValues: number,
  ) {}

  fail(fault: StrictJsonFault, path: string, what: string): never {
    throw new StrictJsonError(fault, path, `${what} (posição ${this.pos})`);
  }

  skipWhitespace(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else return;
    }
  }

  /** The value at `parent` (and member `key`, if any). */
  value(parent: string, key: string | null, depth: number): unknown {
    if (++this.values > this.maxValues) this.fail('size', pathOf(parent, key), `mais de ${this.maxValues} valores JSON`);
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b) return this.object(pathOf(parent, key), depth + 1);
    if (c === 0x5b) return this.array(pathOf(parent, key), depth + 1);
    if (c === 0x22) return this.string(parent, key);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number(parent, key);
    if (this.text.startsWith('true', this.pos)) return (this.pos += 4), true;
    if (this.text.startsWith('false', this.pos)) return (this.pos += 5), false;
    if (this.text.startsWith('null', this.pos)) return (this.pos += 4), null;
    return this.fail('syntax', pathOf(parent, key), Number.isNaN(c) ? 'JSON incompleto' : 'valor JSON inválido');
  }

  private object(path: string, depth: number): Record<string, unknown> {
    if (depth > this.maxDepth) this.fail('depth', path, `aninhamento acima de ${this.maxDepth} níveis`);
    this.pos++;
    const result: Record<string, unknown> = {};
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) return this.pos++, result;
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('syntax', path, 'esperado o nome de um membro');
      const key = this.string(path, null);
      // The object's own members are the ones seen so far (no Set per object).
      if (hasOwn(result, key)) this.fail('duplicate', memberPath(path, key), `o membro ${memberPath(path, key)} aparece mais de uma vez`);
      if (key === '__proto__') this.fail('proto', memberPath(path, key), 'o membro __proto__ não é permitido');
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail('syntax', memberPath(path, key), 'esperado ":"');
      this.pos++;
      this.skipWhitespace();
      // Assignment to a fresh object literal never runs a setter: __proto__ was refused above.
      result[key] = this.value(path, key, depth);
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) return result;
      if (c !== 0x2c) this.fail('syntax', path, 'esperado "," ou "}"');
      this.skipWhitespace();
    }
  }

  private array(path: string, depth: number): unknown[] {
    if (depth > this.maxDepth) this.fail('depth', path, `aninhamento acima de ${this.maxDepth} níveis`);
    this.pos++;
    const result: unknown[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) return this.pos++, result;
    for (;;) {
      result.push(this.value(`${path}[${result.length}]`, null, depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return result;
      if (c !== 0x2c) this.fail('syntax', path, 'esperado "," ou "]"');
      this.skipWhitespace();
    }
  }

  private number(parent: string, key: string | null): number {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('syntax', pathOf(parent, key), 'número inválido');
    this.pos += m[0].length;
    const n = Number(m[0]);
    // A number read as an integer it is not (29.999999999999999 as 30, 1e-400 as 0), or an
    // integer past 2^53 read as a neighbour: every number of the contract's bodies is an integer,
    // and this one would be stored as another.
    if (Number.isInteger(n) && (!Number.isSafeInteger(n) || ((m[1] !== undefined || m[2] !== undefined) && !denotesAnInteger(m[0])))) this.fail('number', pathOf(parent, key), `número que não é exatamente o inteiro ${n}`);
    return n;
  }

  private string(parent: string, key: string | null): string {
    const t = this.text;
    const start = ++this.pos;
    // Fast path: no escapes. A raw C0 control is a syntax error (below), so only DEL, a C1
    // control or a surrogate can make such a text refused: it is checked again only if it has one.
    let suspect = false;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        const s = t.slice(start, this.pos++);
        if (suspect && this.refusedText(s)) this.fail('text', pathOf(parent, key), REFUSED_TEXT);
        return s;
      }
      if (c === 0x5c) break;
      if (c < 0x20 || Number.isNaN(c)) this.fail('syntax', pathOf(parent, key), Number.isNaN(c) ? 'texto não terminado' : 'caractere de controle em um texto');
      if ((c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff)) suspect = true;
      this.pos++;
    }
    let out = t.slice(start, this.pos);
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        this.pos++;
        if (this.refusedText(out)) this.fail('text', pathOf(parent, key), REFUSED_TEXT);
        return out;
      }
      if (c < 0x20 || Number.isNaN(c)) this.fail('syntax', pathOf(parent, key), Number.isNaN(c) ? 'texto não terminado' : 'caractere de controle em um texto');
      if (c !== 0x5c) {
        out += t[this.pos++];
        continue;
      }
      const e = t[this.pos + 1];
      this.pos += 2;
      if (e === 'u') {
        const hex = t.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('syntax', pathOf(parent, key), 'escape \\u inválido');
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 4;
      } else {
        const simple = ESCAPES.get(e);
        if (simple === undefined) this.fail('syntax', pathOf(parent, key), 'escape inválido');
        out += simple;
      }
    }
  }
}

const REFUSED_TEXT = 'texto com caractere de controle ou substituto UTF-16 isolado';

// A Map: an escape letter is never looked up on a prototype.
const ESCAPES = new Map<string, string>([['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']]);

/** Whether a JSON number's text denotes an integer exactly: no non-zero digit after the point once the exponent is applied. */
function denotesAnInteger(lexeme: string): boolean {
  const [mantissa, exponent = '0'] = (lexeme.startsWith('-') ? lexeme.slice(1) : lexeme).split(/[eE]/);
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  for (let i = Math.max(0, point); i < digits.length; i++) if (digits.charCodeAt(i) !== 0x30) return false;
  return true;
}
