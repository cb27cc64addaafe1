// RFC 8259 JSON, read strictly: what JSON.parse accepts but a payments API must not silently
// reinterpret is refused here, at the edge, with the member's path. JSON.parse keeps the last of
// duplicate members, recurses until the stack overflows, and hands NUL and lone surrogates on to
// PostgreSQL (which refuses NUL and turns lone surrogates into U+FFFD).

/** Nesting far above any request of the contract (cobv is 5 levels deep). */
export const MAX_JSON_DEPTH = 64;

export type StrictJsonFault = 'syntax' | 'duplicate' | 'depth' | 'proto' | 'text';

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

/** Parses `text`; throws StrictJsonError. Members are own data properties, `__proto__` refused. */
export function parseStrictJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const parser = new Parser(text, maxDepth);
  parser.skipWhitespace();
  const value = parser.value('', 0);
  parser.skipWhitespace();
  if (parser.pos !== text.length) parser.fail('syntax', '', 'conteúdo após o fim do JSON');
  return value;
}

/** U+0000 or a UTF-16 surrogate without its pair: text no database column can keep as sent. */
export function hasUnstorableText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

const memberPath = (parent: string, key: string) => (parent === '' ? key : `${parent}.${key}`);

class Parser {
  pos = 0;
  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
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

  value(path: string, depth: number): unknown {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b) return this.object(path, depth + 1);
    if (c === 0x5b) return this.array(path, depth + 1);
    if (c === 0x22) return this.string(path);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number(path);
    if (this.text.startsWith('true', this.pos)) return (this.pos += 4), true;
    if (this.text.startsWith('false', this.pos)) return (this.pos += 5), false;
    if (this.text.startsWith('null', this.pos)) return (this.pos += 4), null;
    return this.fail('syntax', path, Number.isNaN(c) ? 'JSON incompleto' : 'valor JSON inválido');
  }

  private object(path: string, depth: number): Record<string, unknown> {
    if (depth > this.maxDepth) this.fail('depth', path, `aninhamento acima de ${this.maxDepth} níveis`);
    this.pos++;
    const result: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) return this.pos++, result;
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('syntax', path, 'esperado o nome de um membro');
      const key = this.string(path);
      const at = memberPath(path, key);
      if (seen.has(key)) this.fail('duplicate', at, `o membro ${at} aparece mais de uma vez`);
      if (key === '__proto__') this.fail('proto', at, 'o membro __proto__ não é permitido');
      seen.add(key);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail('syntax', at, 'esperado ":"');
      this.pos++;
      this.skipWhitespace();
      // Assignment to a fresh object literal never runs a setter: __proto__ was refused above.
      result[key] = this.value(at, depth);
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
      result.push(this.value(`${path}[${result.length}]`, depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return result;
      if (c !== 0x2c) this.fail('syntax', path, 'esperado "," ou "]"');
      this.skipWhitespace();
    }
  }

  private number(path: string): number {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.pos;
    const m = match.exec(this.text);
    if (!m) this.fail('syntax', path, 'número inválido');
    this.pos += m[0].length;
    return Number(m[0]);
  }

  private string(path: string): string {
    const t = this.text;
    const start = ++this.pos;
    // Fast path: no escapes.
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        const s = t.slice(start, this.pos++);
        if (hasUnstorableText(s)) this.fail('text', path, 'texto com U+0000 ou substituto UTF-16 isolado');
        return s;
      }
      if (c === 0x5c) break;
      if (c < 0x20 || Number.isNaN(c)) this.fail('syntax', path, Number.isNaN(c) ? 'texto não terminado' : 'caractere de controle em um texto');
      this.pos++;
    }
    let out = t.slice(start, this.pos);
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        this.pos++;
        if (hasUnstorableText(out)) this.fail('text', path, 'texto com U+0000 ou substituto UTF-16 isolado');
        return out;
      }
      if (c < 0x20 || Number.isNaN(c)) this.fail('syntax', path, Number.isNaN(c) ? 'texto não terminado' : 'caractere de controle em um texto');
      if (c !== 0x5c) {
        out += t[this.pos++];
        continue;
      }
      const e = t[this.pos + 1];
      this.pos += 2;
      if (e === 'u') {
        const hex = t.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('syntax', path, 'escape \\u inválido');
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 4;
      } else {
        const simple = ESCAPES.get(e);
        if (simple === undefined) this.fail('syntax', path, 'escape inválido');
        out += simple;
      }
    }
  }
}

// A Map: an escape letter is never looked up on a prototype.
const ESCAPES = new Map<string, string>([['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']]);
