import type { Decider } from '../decider';
import { DomainError, type Violation } from '../errors';
import { canonicalScopes, isPixScope, type PixScope } from './scopes';

/**
 * `cliente-{clientId}`: an OAuth2 client of one receiver. Only a slow hash of its secret is ever
 * stored. `generation` counts secrets: tokens carry it, so rotating the secret retires them.
 */
export type ClienteEvent =
  | { type: 'ClienteCriado'; data: { clientId: string; recebedorId: string; scopes: PixScope[]; secretHash: string; em: string } }
  | { type: 'SegredoRotacionado'; data: { clientId: string; secretHash: string; generation: number; em: string } }
  | { type: 'ClienteDesativado'; data: { clientId: string; em: string } }
  | { type: 'EscoposDefinidos'; data: { clientId: string; scopes: PixScope[]; em: string } };

export type ClienteCommand =
  | { type: 'CriarCliente'; clientId: string; recebedorId: string; recebedorCadastrado: boolean; scopes: string[]; secretHash: string; now: Date }
  | { type: 'RotacionarSegredo'; clientId: string; secretHash: string; now: Date }
  | { type: 'DesativarCliente'; clientId: string; now: Date }
  | { type: 'DefinirEscopos'; clientId: string; scopes: string[]; now: Date };

export type ClienteState =
  | { exists: false }
  | { exists: true; clientId: string; recebedorId: string; scopes: PixScope[]; secretHash: string; generation: number; enabled: boolean };

export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const clienteStreamId = (clientId: string) => `cliente-${clientId}`;

export const clienteDecider: Decider<ClienteCommand, ClienteEvent, ClienteState> = {
  initialState: { exists: false },
  decide(command, state) {
    const em = command.now.toISOString();
    const { clientId } = command;
    if (command.type === 'CriarCliente') {
      const scopes = validScopes(command);
      if (state.exists) throw new DomainError('ClienteJaCadastrado', `There is already a client "${clientId}".`);
      if (!command.recebedorCadastrado) throw new DomainError('RecebedorNaoEncontrado', `There is no receiver "${command.recebedorId}".`);
      return [{ type: 'ClienteCriado', data: { clientId, recebedorId: command.recebedorId, scopes, secretHash: command.secretHash, em } }];
    }
    if (!state.exists) throw new DomainError('ClienteNaoEncontrado', `There is no client "${clientId}".`);
    if (command.type === 'DesativarCliente') return state.enabled ? [{ type: 'ClienteDesativado', data: { clientId, em } }] : [];
    if (command.type === 'DefinirEscopos') {
      const scopes = checkedScopes(clientId, command.scopes);
      return scopes.join(' ') === state.scopes.join(' ') ? [] : [{ type: 'EscoposDefinidos', data: { clientId, scopes, em } }];
    }
    // A disabled client stays disabled: a new secret must not bring it back.
    if (!state.enabled) throw new DomainError('ClienteDesativado', `Client "${clientId}" is disabled.`);
    if (!command.secretHash) throw new DomainError('ClienteInvalido', 'A secret hash is required.');
    return [{ type: 'SegredoRotacionado', data: { clientId, secretHash: command.secretHash, generation: state.generation + 1, em } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ClienteCriado': {
        const { em: _em, ...d } = event.data;
        return { exists: true, ...d, generation: 1, enabled: true };
      }
      case 'SegredoRotacionado':
        return state.exists ? { ...state, secretHash: event.data.secretHash, generation: event.data.generation } : state;
      case 'ClienteDesativado':
        return state.exists ? { ...state, enabled: false } : state;
      case 'EscoposDefinidos':
        return state.exists ? { ...state, scopes: event.data.scopes } : state;
    }
  },
};

function validScopes(command: Extract<ClienteCommand, { type: 'CriarCliente' }>): PixScope[] {
  const v: Violation[] = [];
  if (!CLIENT_ID_PATTERN.test(command.clientId)) v.push({ razao: '1 to 64 letters, digits, ".", "_" or "-"', propriedade: 'clientId', valor: command.clientId.slice(0, 80) });
  v.push(...scopeViolations(command.scopes));
  if (!command.secretHash) v.push({ razao: 'required', propriedade: 'secretHash' });
  if (v.length > 0) throw invalidClient(command.clientId, v);
  return canonicalScopes(command.scopes);
}

function checkedScopes(clientId: string, scopes: string[]): PixScope[] {
  const v = scopeViolations(scopes);
  if (v.length > 0) throw invalidClient(clientId, v);
  return canonicalScopes(scopes);
}

function scopeViolations(scopes: string[]): Violation[] {
  const unknown = scopes.filter((s) => !isPixScope(s));
  if (unknown.length > 0) return [{ razao: 'unknown scope(s)', propriedade: 'scopes', valor: unknown.join(' ').slice(0, 200) }];
  return scopes.length === 0 ? [{ razao: 'at least one scope', propriedade: 'scopes' }] : [];
}

const invalidClient = (clientId: string, v: Violation[]) =>
  new DomainError('ClienteInvalido', `Client "${clientId}": ${v.map((x) => `${x.propriedade}: ${x.razao}${x.valor ? ` (${x.valor})` : ''}`).join('; ')}.`, v);
