import type { Decider } from '../decider';
import { DomainError, type Violation } from '../errors';
import { isValidCnpj, isValidCpf, pixKeyType, RECEBEDOR_ID_PATTERN, toBrCodeText } from '../shared';

/** A receiver's registration data: who charges, as BR Codes and charges show it. */
export interface DadosRecebedor {
  nome: string;
  cpf?: string;
  cnpj?: string;
  nomeFantasia?: string;
  logradouro: string;
  cidade: string;
  uf: string;
  cep: string;
}

export type RecebedorEvent =
  | { type: 'RecebedorCadastrado'; data: DadosRecebedor & { recebedorId: string; em: string } }
  | { type: 'RecebedorAtualizado'; data: DadosRecebedor & { recebedorId: string; em: string } }
  | { type: 'ChaveVinculada'; data: { recebedorId: string; chave: string; em: string } }
  | { type: 'ChaveDesvinculada'; data: { recebedorId: string; chave: string; em: string } };

export type RecebedorCommand =
  | { type: 'CadastrarRecebedor'; recebedorId: string; dados: DadosRecebedor; now: Date }
  | { type: 'AtualizarRecebedor'; recebedorId: string; dados: DadosRecebedor; now: Date }
  | { type: 'VincularChave'; recebedorId: string; chave: string; now: Date }
  | { type: 'DesvincularChave'; recebedorId: string; chave: string; now: Date };

export type RecebedorState = { exists: false } | { exists: true; recebedorId: string; dados: DadosRecebedor; chaves: string[] };

export const recebedorStreamId = (recebedorId: string) => `recebedor-${recebedorId}`;

const TEXT_LIMIT = 200;
/**
 * Controls (C0, DEL, C1), bidi overrides and isolates, zero-width marks and lone surrogates: a
 * receiver's name and address reach every payload, log line and terminal as they are written.
 */
const INVISIBLE_OR_CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const recebedorDecider: Decider<RecebedorCommand, RecebedorEvent, RecebedorState> = {
  initialState: { exists: false },
  decide(command, state) {
    const em = command.now.toISOString();
    const { recebedorId } = command;
    switch (command.type) {
      case 'CadastrarRecebedor': {
        const dados = validDados(recebedorId, command.dados);
        if (state.exists) {
          // A retried registration with the same data changes nothing; other data is a conflict.
          if (sameDados(state.dados, dados)) return [];
          throw new DomainError('RecebedorJaCadastrado', `Receiver "${recebedorId}" is already registered (with other data).`);
        }
        return [{ type: 'RecebedorCadastrado', data: { recebedorId, ...dados, em } }];
      }
      case 'AtualizarRecebedor': {
        const dados = validDados(recebedorId, command.dados);
        const current = existing(state, recebedorId);
        return sameDados(current.dados, dados) ? [] : [{ type: 'RecebedorAtualizado', data: { recebedorId, ...dados, em } }];
      }
      case 'VincularChave': {
        const current = existing(state, recebedorId);
        if (pixKeyType(command.chave) === null) throw invalidKey(command.chave);
        return current.chaves.includes(command.chave) ? [] : [{ type: 'ChaveVinculada', data: { recebedorId, chave: command.chave, em } }];
      }
      case 'DesvincularChave': {
        // Idempotent: a removal interrupted after this step is finished by running it again.
        const current = existing(state, recebedorId);
        return current.chaves.includes(command.chave) ? [{ type: 'ChaveDesvinculada', data: { recebedorId, chave: command.chave, em } }] : [];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RecebedorCadastrado':
      case 'RecebedorAtualizado': {
        const { recebedorId, em: _em, ...dados } = event.data;
        return { exists: true, recebedorId, dados, chaves: state.exists ? state.chaves : [] };
      }
      case 'ChaveVinculada':
        return state.exists ? { ...state, chaves: [...state.chaves, event.data.chave] } : state;
      case 'ChaveDesvinculada':
        return state.exists ? { ...state, chaves: state.chaves.filter((c) => c !== event.data.chave) } : state;
    }
  },
};

function existing(state: RecebedorState, recebedorId: string) {
  if (!state.exists) throw new DomainError('RecebedorNaoEncontrado', `There is no receiver "${recebedorId}".`);
  return state;
}

export const invalidKey = (chave: string) =>
  new DomainError('ChaveInvalida', `"${chave.slice(0, 80)}" is not a Pix key (CPF, CNPJ, lowercase e-mail, +E.164 phone or EVP).`, [
    { razao: 'not a valid DICT key', propriedade: 'chave', valor: chave.slice(0, 77) },
  ]);

/** The data with optional fields dropped when empty; throws RecebedorInvalido listing every problem. */
function validDados(recebedorId: string, d: DadosRecebedor): DadosRecebedor {
  const v: Violation[] = [];
  const bad = (propriedade: string, razao: string, valor?: string) => v.push({ razao, propriedade, ...(valor !== undefined ? { valor: valor.slice(0, 80) } : {}) });
  if (!RECEBEDOR_ID_PATTERN.test(recebedorId)) bad('id', 'lowercase letters, digits, "_" or "-", at most 40, starting with a letter or digit', recebedorId);
  const text = (name: keyof DadosRecebedor, value: string | undefined, required: boolean) => {
    if (value === undefined || value === '') {
      if (required) bad(name, 'required');
    } else if (value.trim() !== value || value.length > TEXT_LIMIT) bad(name, `1 to ${TEXT_LIMIT} characters without surrounding spaces`, value);
    else if (INVISIBLE_OR_CONTROL.test(value)) bad(name, 'visible text only: no control characters, direction overrides or zero-width marks', value);
  };
  text('nome', d.nome, true);
  text('nomeFantasia', d.nomeFantasia, false);
  text('logradouro', d.logradouro, true);
  text('cidade', d.cidade, true);
  // The BR Code carries name and city in ASCII (accents dropped): one with nothing left has no BR Code.
  for (const name of ['nome', 'cidade'] as const)
    if (d[name] && !INVISIBLE_OR_CONTROL.test(d[name]) && toBrCodeText(d[name], 25) === '') bad(name, 'Latin letters or digits are needed: the BR Code carries it in ASCII', d[name]);
  if (!/^[A-Z]{2}$/.test(d.uf ?? '')) bad('uf', 'two capital letters', d.uf);
  if (!/^\d{8}$/.test(d.cep ?? '')) bad('cep', '8 digits', d.cep);
  if (d.cpf && d.cnpj) bad('cpf', 'give a CPF or a CNPJ, not both');
  else if (d.cpf !== undefined) {
    if (!isValidCpf(d.cpf)) bad('cpf', '11 digits with valid check digits', d.cpf);
  } else if (d.cnpj !== undefined) {
    if (!isValidCnpj(d.cnpj)) bad('cnpj', '14 characters [0-9A-Z] with valid check digits', d.cnpj);
  } else bad('cnpj', 'a CPF or a CNPJ is required');
  if (v.length > 0) throw new DomainError('RecebedorInvalido', `Receiver "${recebedorId}": ${v.map((x) => `${x.propriedade}: ${x.razao}`).join('; ')}.`, v);
  return {
    nome: d.nome,
    ...(d.cpf ? { cpf: d.cpf } : { cnpj: d.cnpj }),
    ...(d.nomeFantasia ? { nomeFantasia: d.nomeFantasia } : {}),
    logradouro: d.logradouro,
    cidade: d.cidade,
    uf: d.uf,
    cep: d.cep,
  };
}

const FIELDS: (keyof DadosRecebedor)[] = ['nome', 'cpf', 'cnpj', 'nomeFantasia', 'logradouro', 'cidade', 'uf', 'cep'];
const sameDados = (a: DadosRecebedor, b: DadosRecebedor) => FIELDS.every((f) => (a[f] ?? '') === (b[f] ?? ''));
