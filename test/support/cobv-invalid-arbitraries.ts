// fast-check generators of cobv request bodies that are CERTAINLY invalid. Each mutation leaves
// something the contract forbids at its own path, and later mutations never repair an earlier one
// without leaving their own defect, so any sequence of them yields an invalid body.
import fc from 'fast-check';
import { isValidCnpj, isValidCpf } from '@pix/domain';
import { LOCAL_KEY } from './api-harness';

type Json = any;
export type Path = string[];
export type Mutation = { label: string; apply(body: Json): Json };

const REMOVIDA = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
const MONEY = /^\d{1,10}\.\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every member name the request schemas define, per object: an added key is unknown only if not here. */
const KNOWN_KEYS: Record<string, string[]> = {
  '': ['calendario', 'devedor', 'valor', 'chave', 'solicitacaoPagador', 'infoAdicionais', 'loc', 'status'],
  calendario: ['dataDeVencimento', 'validadeAposVencimento'],
  devedor: ['cpf', 'cnpj', 'nome', 'email', 'logradouro', 'cidade', 'uf', 'cep'],
  valor: ['original', 'multa', 'juros', 'abatimento', 'desconto'],
  'valor.multa': ['modalidade', 'valorPerc'],
  'valor.desconto': ['modalidade', 'valorPerc', 'descontoDataFixa'],
};

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets `path` to `value` as an own data property (even `__proto__`), creating objects on the way. */
export function setAt(body: Json, path: Path, value: Json): Json {
  const root = isObject(body) ? body : {};
  let target = root;
  for (const key of path.slice(0, -1)) {
    if (!isObject(target[key])) Object.defineProperty(target, key, { value: {}, enumerable: true, writable: true, configurable: true });
    target = target[key];
  }
  Object.defineProperty(target, path[path.length - 1], { value, enumerable: true, writable: true, configurable: true });
  return root;
}

const dropAt = (body: Json, path: Path): Json => {
  let target = body;
  for (const key of path.slice(0, -1)) target = isObject(target) ? target[key] : undefined;
  if (isObject(target)) delete target[path[path.length - 1]];
  return body;
};

const due = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

// ---- values that a given kind of member can never take -------------------------------------
const smallJson = fc.jsonValue({ maxDepth: 2 });
const notString = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.array(smallJson, { maxLength: 3 }), fc.dictionary(fc.string(), smallJson, { maxKeys: 3 }));
const notObject = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(smallJson, { maxLength: 3 }));
const notArray = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(fc.string(), smallJson, { maxKeys: 3 }));
/** Never an integer, nor a string of digits (modalidade accepts "2" as the official examples send it). */
const notInteger = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.boolean(),
  fc.constant(null),
  fc.string().map((s) => `x${s}`),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const notMoney = fc.oneof(fc.string().filter((s) => !MONEY.test(s)), fc.constantFrom('1.0', '1.000', '-1.00', '1,00', ' 1.00', '1.00 ', '12345678901.00', '+1.00', '1e2'));
const hugeString = (min: number) => fc.integer({ min, max: 50_000 }).map((n) => 'ç'.repeat(n));
const deepNest = fc.tuple(fc.integer({ min: 13, max: 3000 }), fc.boolean()).map(([depth, arrays]) => {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { n: v };
  return v;
});
const badDue = fc.oneof(
  fc.string().filter((s) => !DATE.test(s)),
  fc.integer({ min: 2, max: 20_000 }).map((d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10)),
  fc.constantFrom('2027-02-30', '2027-13-01', '2027-00-10', '2027-04-31', '2100-02-29', `${due()}T00:00:00Z`, due().replace(/-/g, '/')),
);
const badCpf = fc.oneof(fc.string().filter((s) => !isValidCpf(s)), fc.stringMatching(/^\d{11}$/).filter((s) => !isValidCpf(s)));
const badCnpj = fc.oneof(fc.string().filter((s) => !isValidCnpj(s)), fc.stringMatching(/^[0-9A-Z]{12}\d{2}$/).filter((s) => !isValidCnpj(s)));
const foreignKey = fc.oneof(fc.string().filter((s) => s !== LOCAL_KEY), fc.constantFrom('+5511999998888', 'fulano@example.com', '12345678909', '56989000019563', LOCAL_KEY.toUpperCase()));
const outside = (min: number, max: number) => fc.oneof(fc.integer({ max: min - 1 }), fc.integer({ min: max + 1 }));

const replace = (path: Path, values: fc.Arbitrary<Json>, why: string): fc.Arbitrary<Mutation> =>
  values.map((v) => ({ label: `${path.join('.')} ${why}`, apply: (b: Json) => setAt(b, path, v) }));

/** Mutations valid for PUT and PATCH alike (each sends the member it breaks). */
const common: fc.Arbitrary<Mutation>[] = [
  ...[['calendario'], ['devedor'], ['valor'], ['valor', 'multa'], ['valor', 'juros'], ['valor', 'abatimento'], ['valor', 'desconto'], ['loc']].map((p) => replace(p, notObject, 'not an object')),
  ...[['chave'], ['solicitacaoPagador'], ['valor', 'original'], ['calendario', 'dataDeVencimento'], ['devedor', 'nome'], ['devedor', 'cpf'], ['devedor', 'email']].map((p) => replace(p, notString, 'not a string')),
  ...[['calendario', 'validadeAposVencimento'], ['valor', 'multa', 'modalidade'], ['valor', 'juros', 'modalidade']].map((p) => replace(p, notInteger, 'not an integer')),
  replace(['infoAdicionais'], notArray, 'not an array'),
  replace(['valor', 'desconto', 'descontoDataFixa'], notArray, 'not an array'),
  replace(['valor', 'original'], fc.oneof(notMoney, fc.constantFrom('0.00', '00.00', '0000000000.00')), 'bad amount'),
  replace(['valor', 'multa'], fc.tuple(fc.constantFrom(1, 2), notMoney).map(([m, v]) => ({ modalidade: m, valorPerc: v })), 'bad valorPerc'),
  replace(['valor', 'multa'], outside(1, 2).map((m) => ({ modalidade: m, valorPerc: '1.00' })), 'modalidade out of range'),
  replace(['valor', 'juros'], outside(1, 8).map((m) => ({ modalidade: m, valorPerc: '1.00' })), 'modalidade out of range'),
  replace(['valor', 'desconto'], outside(1, 6).map((m) => ({ modalidade: m, valorPerc: '1.00' })), 'modalidade out of range'),
  replace(['valor', 'desconto'], fc.integer({ min: 3, max: 6 }).map((m) => ({ modalidade: m })), 'without valorPerc'),
  replace(['valor', 'desconto'], fc.constantFrom(1, 2).map((m) => ({ modalidade: m })), 'without descontoDataFixa'),
  replace(['valor', 'abatimento'], fc.integer({ min: 10_000, max: 999_999 }).map((p) => ({ modalidade: 2, valorPerc: (p / 100).toFixed(2) })), '>= 100%'),
  replace(['calendario', 'dataDeVencimento'], badDue, 'bad due date'),
  replace(['calendario', 'validadeAposVencimento'], fc.integer({ min: -2_147_483_648, max: -1 }), 'negative'),
  replace(['devedor'], badCpf.map((cpf) => ({ cpf, nome: 'Ana' })), 'bad cpf'),
  replace(['devedor'], badCnpj.map((cnpj) => ({ cnpj, nome: 'Empresa' })), 'bad cnpj'),
  replace(['devedor'], fc.constant({ cpf: '12345678909', cnpj: '56989000019563', nome: 'Ana' }), 'cpf and cnpj'),
  replace(['devedor'], fc.constantFrom({ cpf: '12345678909' }, { nome: 'Ana' }, {}), 'incomplete'),
  replace(['devedor', 'nome'], hugeString(201), 'too long'),
  replace(['devedor', 'uf'], fc.string({ minLength: 3 }), 'too long'),
  replace(['chave'], foreignKey, 'not this receiver key'),
  replace(['solicitacaoPagador'], hugeString(141), 'too long'),
  replace(['loc'], fc.oneof(fc.integer({ min: 1_000_000 }).map((id) => ({ id })), fc.constant({}), fc.constant({ id: 1.5 })), 'foreign or bad'),
  replace(['infoAdicionais'], fc.oneof(fc.integer({ min: 51, max: 64 }), fc.integer({ min: 65, max: 400 })).map((n) => Array.from({ length: n }, (_, i) => ({ nome: `n${i}`, valor: 'v' }))), 'over 50 items'),
  replace(['infoAdicionais'], fc.oneof(hugeString(51).map((nome) => [{ nome, valor: 'v' }]), fc.constant([{ nome: 'a' }]), fc.constant([1])), 'bad item'),
];

const deeplyNested = fc.tuple(fc.constantFrom<Path>(['calendario'], ['devedor'], ['valor'], ['valor', 'multa'], ['loc'], ['infoAdicionais'], ['chave']), deepNest).map(([p, v]) => ({
  label: `${p.join('.')} deeply nested`,
  apply: (b: Json) => setAt(b, p, v),
}));

/**
 * Names every plain object inherits (`valueOf`, `hasOwnProperty`, `constructor`, ...): a check
 * that looks members up on an object instead of by own name lets them through. Drawn half the
 * time, so every run covers the class.
 */
export const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
const memberName = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...PROTOTYPE_NAMES));

const unknownKey = fc.tuple(fc.constantFrom(...Object.keys(KNOWN_KEYS)), memberName, fc.oneof(smallJson, deepNest)).filter(([where, key]) => !KNOWN_KEYS[where].includes(key)).map(([where, key, v]) => ({
  label: `unknown key ${JSON.stringify(key)} in ${where || 'body'}`,
  apply: (b: Json) => setAt(b, [...(where ? where.split('.') : []), key], v),
}));

/** PUT only: required members missing. */
const putOnly: (fc.Arbitrary<Mutation> | fc.WeightedArbitrary<Mutation>)[] = [
  { weight: 5, arbitrary: fc.constantFrom<Path>(['calendario'], ['devedor'], ['valor'], ['chave'], ['calendario', 'dataDeVencimento'], ['valor', 'original'], ['devedor', 'nome']).map((p) => ({ label: `${p.join('.')} missing`, apply: (b: Json) => dropAt(b, p) })) },
  fc.constant({ label: 'status sent in a PUT', apply: (b: Json) => setAt(b, ['status'], REMOVIDA) }),
];

/** PATCH only: status values a client may not set, or removal mixed with a change. */
const patchOnly: fc.Arbitrary<Mutation>[] = [
  replace(['status'], fc.oneof(fc.string().filter((s) => s !== REMOVIDA), fc.constantFrom('ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_PSP', REMOVIDA.toLowerCase()), notString), 'not settable'),
  fc.constant({ label: 'removal with another change', apply: (b: Json) => setAt(setAt(b, ['solicitacaoPagador'], 'tchau'), ['status'], REMOVIDA) }),
];

/** 1 to 3 mutations applied in order to a deep copy of `base`. */
export function invalidBody(base: () => Json, kind: 'PUT' | 'PATCH'): fc.Arbitrary<{ body: Json; labels: string[] }> {
  const one = fc.oneof(...common, ...(kind === 'PUT' ? putOnly : patchOnly), { weight: 6, arbitrary: unknownKey }, { weight: 3, arbitrary: deeplyNested });
  return fc.array(one, { minLength: 1, maxLength: 3 }).map((ms) => ({
    body: ms.reduce((b, m) => m.apply(b), structuredClone(base())),
    labels: ms.map((m) => m.label),
  }));
}

/** A valid PATCH body: any subset of a valid PUT body's members (possibly none). */
export function validPatch(full: Json): fc.Arbitrary<Json> {
  return fc.subarray(['calendario', 'devedor', 'valor', 'chave', 'solicitacaoPagador', 'infoAdicionais']).map((keys) =>
    Object.fromEntries(keys.map((k) => [k, structuredClone(full[k])])),
  );
}

/** Path-safe txids that break the contract's `[a-zA-Z0-9]{26,35}`. */
export const invalidTxid = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9]{1,25}$/),
  fc.stringMatching(/^[a-zA-Z0-9]{36,60}$/),
  fc.tuple(fc.stringMatching(/^[a-zA-Z0-9]{13}$/), fc.constantFrom('-', '_', '.', '~', ' ', 'ç', '%', '+', '@', '!'), fc.stringMatching(/^[a-zA-Z0-9]{13}$/)).map(([a, c, b]) => `${a}${c}${b}`),
);
