import { clienteDecider, PIX_SCOPES, type ClienteCommand, type ClienteEvent } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(clienteDecider);
const now = new Date('2026-11-22T12:00:00.000Z');
const em = now.toISOString();
const create = (over: Partial<Extract<ClienteCommand, { type: 'CriarCliente' }>> = {}): ClienteCommand => ({
  type: 'CriarCliente',
  clientId: 'erp-1',
  recebedorId: 'loja1',
  recebedorCadastrado: true,
  scopes: ['cobv.read', 'cobv.write'],
  secretHash: 'scrypt$h1',
  now,
  ...over,
});
const created: ClienteEvent[] = [{ type: 'ClienteCriado', data: { clientId: 'erp-1', recebedorId: 'loja1', scopes: ['cobv.write', 'cobv.read'], secretHash: 'scrypt$h1', em } }];
const rotate = (secretHash = 'scrypt$h2'): ClienteCommand => ({ type: 'RotacionarSegredo', clientId: 'erp-1', secretHash, now });
const disable: ClienteCommand = { type: 'DesativarCliente', clientId: 'erp-1', now };
const fold = (events: ClienteEvent[]) => events.reduce(clienteDecider.evolve, clienteDecider.initialState);

describe('client decider', () => {
  it('creates a client of a receiver with its scopes in canonical order, at generation 1', () => {
    spec.given([]).when(create()).then(created);
    expect(fold(created)).toEqual({ exists: true, clientId: 'erp-1', recebedorId: 'loja1', scopes: ['cobv.write', 'cobv.read'], secretHash: 'scrypt$h1', generation: 1, enabled: true });
    spec.given([]).when(create({ scopes: [...PIX_SCOPES, 'cobv.read'] })).then((e) => expect(e[0].data).toMatchObject({ scopes: [...PIX_SCOPES] }));
  });

  it.each<[string, Partial<Extract<ClienteCommand, { type: 'CriarCliente' }>>, string]>([
    ['a scope outside the contract', { scopes: ['cobv.read', 'cob.write'] }, 'scopes'],
    ['no scope', { scopes: [] }, 'scopes'],
    ['a client id with a space', { clientId: 'erp 1' }, 'clientId'],
    ['no secret hash', { secretHash: '' }, 'secretHash'],
  ])('refuses %s with ClienteInvalido', (_name, over, property) => {
    spec.given([]).when(create(over)).thenThrows('ClienteInvalido', [property]);
  });

  it('refuses a client of an unknown receiver and a second client with the same id', () => {
    spec.given([]).when(create({ recebedorCadastrado: false })).thenThrows('RecebedorNaoEncontrado');
    spec.given(created).when(create()).thenThrows('ClienteJaCadastrado');
  });

  it('rotates the secret with generation + 1 each time', () => {
    const first = spec.given(created).when(rotate()).then([{ type: 'SegredoRotacionado', data: { clientId: 'erp-1', secretHash: 'scrypt$h2', generation: 2, em } }]);
    spec.given([...created, ...first]).when(rotate('scrypt$h3')).then((e) => expect(e[0].data).toMatchObject({ generation: 3 }));
    expect(fold([...created, ...first])).toMatchObject({ secretHash: 'scrypt$h2', generation: 2, enabled: true });
    spec.given([]).when(rotate()).thenThrows('ClienteNaoEncontrado');
  });

  it('disables once; a disabled client gets no new secret', () => {
    const disabled = spec.given(created).when(disable).then([{ type: 'ClienteDesativado', data: { clientId: 'erp-1', em } }]);
    expect(fold([...created, ...disabled])).toMatchObject({ enabled: false });
    spec.given([...created, ...disabled]).when(disable).then([]);
    spec.given([...created, ...disabled]).when(rotate()).thenThrows('ClienteDesativado');
    spec.given([]).when(disable).thenThrows('ClienteNaoEncontrado');
  });

  it('sets scopes in canonical order; the same set again records nothing; unknown or no scopes are refused', () => {
    const scopes = (list: string[]): ClienteCommand => ({ type: 'DefinirEscopos', clientId: 'erp-1', scopes: list, now: new Date(em) });
    const set = spec.given(created).when(scopes(['payloadlocation.read', 'cobv.read'])).then([{ type: 'EscoposDefinidos', data: { clientId: 'erp-1', scopes: ['cobv.read', 'payloadlocation.read'], em } }]);
    expect(fold([...created, ...set])).toMatchObject({ scopes: ['cobv.read', 'payloadlocation.read'] });
    spec.given([...created, ...set]).when(scopes(['cobv.read', 'payloadlocation.read'])).then([]);
    spec.given(created).when(scopes(['cobv.read', 'admin'])).thenThrows('ClienteInvalido');
    spec.given(created).when(scopes([])).thenThrows('ClienteInvalido');
    spec.given([]).when(scopes(['cobv.read'])).thenThrows('ClienteNaoEncontrado');
  });
});
