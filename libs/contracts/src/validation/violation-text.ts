// Wording of violations, in the style of the official examples
// ("O campo cobv.valor.original não respeita o _schema_.", "O objeto cobv.devedor não respeita
// o _schema_."), and the helpers that render paths and offending values safely.
import { Violacao } from '../problem';

// Echoed keys and values are attacker-controlled: keep them short in the response.
const MAX_ECHO_CHARS = 200;

function truncate(s: string): string {
  return s.length > MAX_ECHO_CHARS ? `${s.slice(0, MAX_ECHO_CHARS)}…` : s;
}

/** Appends a property name or an array index to a dotted path (`a.b`, `a[2]`). */
export function childPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${truncate(key)}`;
}

/** The offending value as a string when it is a primitive; objects and arrays are not echoed. */
export function formatValor(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return truncate(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      return undefined;
  }
}

function violacao(razao: string, propriedade: string, value: unknown): Violacao {
  const v: Violacao = { razao, propriedade };
  const valor = formatValor(value);
  if (valor !== undefined) v.valor = valor;
  return v;
}

/** A field (primitive-valued member) that breaks the schema; `esperado` says what it takes. */
export function campoInvalido(path: string, value: unknown, esperado?: string): Violacao {
  return violacao(`O campo ${path} não respeita o _schema_${esperado ? `: esperado ${esperado}` : ''}.`, path, value);
}

/** An object or array member that breaks the schema as a whole. */
export function objetoInvalido(path: string, value: unknown): Violacao {
  return violacao(`O objeto ${path} não respeita o _schema_.`, path, value);
}

/** A member the schema does not define (includes `__proto__` / `constructor` keys). */
export function campoNaoPermitido(path: string, value: unknown): Violacao {
  return violacao(`O campo ${path} não é permitido pelo _schema_.`, path, value);
}
