// What a request member expects, in words, read from its DTO's own class-validator metadata: a
// refused field says what would have been accepted ("esperado texto de até 140 caracteres"), so
// a developer does not need the OpenAPI file beside the error. One source, the decorators.
import { getMetadataStorage } from 'class-validator';
import { CONTRACT_PATTERNS } from './patterns';

/** txid (path and body): `[a-zA-Z0-9]{26,35}`. */
export const TXID_EXPECTED = 'de 26 a 35 letras (a-z, A-Z) ou dígitos';

const PATTERN_WORDS = new Map<string, string>([
  [CONTRACT_PATTERNS.money.source, 'um valor como "123.45" (até 10 dígitos, ponto, 2 casas decimais)'],
  [CONTRACT_PATTERNS.cpf.source, '11 dígitos'],
  [CONTRACT_PATTERNS.cnpj.source, '14 caracteres de 0-9 ou A-Z'],
  [/^[a-zA-Z0-9]{26,35}$/.source, TXID_EXPECTED],
]);

/** Bounds past int32's are JSON's exact integers (loc id), not a rule worth saying. */
const PLAIN_BOUND = 2 ** 31 + 1;

type Metadata = { name?: string; constraints?: unknown[] };

function words(all: Metadata[]): string | undefined {
  const by = new Map(all.map((m) => [m.name, m.constraints ?? []]));
  const pattern = by.get('matches')?.[0];
  const maxLength = by.get('maxLength')?.[0];
  const upTo = typeof maxLength === 'number' ? ` de até ${maxLength} caracteres` : '';
  // A pattern says more than "texto" does.
  if (pattern instanceof RegExp) return PATTERN_WORDS.get(pattern.source) ?? `texto no padrão ${pattern.source}`;
  if (by.has('isCalendarDate')) return 'uma data AAAA-MM-DD que exista';
  const isIn = by.get('isIn')?.[0];
  if (Array.isArray(isIn)) return `um de: ${isIn.join(', ')}`;
  if (by.has('isEmail')) return `um endereço de e-mail${upTo}`;
  if (by.has('isString')) return `texto${upTo}`;
  if (by.has('isBoolean')) return 'true ou false';
  if (by.has('isInt')) {
    const min = by.get('min')?.[0];
    const max = by.get('max')?.[0];
    const plain = (n: unknown): n is number => typeof n === 'number' && Math.abs(n) < PLAIN_BOUND;
    if (plain(min) && plain(max)) return `número inteiro de ${min} a ${max}`;
    return plain(min) ? `número inteiro a partir de ${min}` : 'número inteiro';
  }
  return undefined;
}

/** Per DTO class (an instance's constructor). */
const cache = new Map<object, Map<string, string | undefined>>();

/** "texto de até 140 caracteres" for a member of the DTO `instance` is of; undefined when its decorators say nothing a person needs. */
export function expectedFormat(instance: object, property: string): string | undefined {
  const dto = instance.constructor;
  let members = cache.get(dto);
  if (!members) cache.set(dto, (members = new Map()));
  if (members.has(property)) return members.get(property);
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((m) => m.propertyName === property && !m.each);
  const said = words(metadata);
  members.set(property, said);
  return said;
}
