// Turns class-validator's error tree into the flat `violacoes` list of a `Problema`, naming each
// member by its full path (`cobv.valor.multa.modalidade`, `cobv.infoAdicionais[2].nome`).
import { ValidationError } from 'class-validator';
import { Violacao } from '../problem';
import { expectedFormat } from './expected-format';
import { campoInvalido, campoNaoPermitido, childPath, objetoInvalido } from './violation-text';

// Members whose schema type is object/array: reported as "O objeto ..." (official wording).
const OBJECT_MEMBERS = new Set([
  'calendario',
  'devedor',
  'loc',
  'valor',
  'multa',
  'juros',
  'abatimento',
  'desconto',
  'descontoDataFixa',
  'infoAdicionais',
]);

// When the container itself has the wrong type or is missing, its children's errors are noise.
const CONTAINER_FAILURES = new Set([
  'isDefined',
  'isObject',
  'isArray',
  'nestedValidation',
  'whitelistValidation',
  'unknownValue',
]);

export function flattenValidationErrors(errors: ValidationError[], rootPath: string): Violacao[] {
  const out: Violacao[] = [];
  for (const error of errors) walk(error, rootPath, false, out);
  return out;
}

function walk(error: ValidationError, parentPath: string, parentIsArray: boolean, out: Violacao[]): void {
  const isIndex = parentIsArray && /^\d+$/.test(error.property ?? '');
  const path =
    error.property === undefined || error.property === ''
      ? parentPath
      : childPath(parentPath, isIndex ? Number(error.property) : error.property);
  const failed = Object.keys(error.constraints ?? {});
  if (failed.length > 0) {
    if (failed.includes('whitelistValidation')) out.push(campoNaoPermitido(path, error.value));
    else if (isIndex || OBJECT_MEMBERS.has(error.property)) out.push(objetoInvalido(path, error.value));
    else out.push(campoInvalido(path, error.value, error.target && expectedFormat(error.target, error.property)));
  }
  if (failed.some((c) => CONTAINER_FAILURES.has(c))) return;
  const valueIsArray = Array.isArray(error.value);
  for (const child of error.children ?? []) walk(child, path, valueIsArray, out);
}
