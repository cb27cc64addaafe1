import { chaveDecider, holderAt, type ChaveCommand, type ChaveEvent, type ChaveState } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(chaveDecider);
const now = new Date('2026-11-22T12:00:00.000Z');
const chave = '+5511988887777';
const claim = (recebedorId: string, key = chave): ChaveCommand => ({ type: 'ReivindicarChave', chave: key, recebedorId, now });
const release = (recebedorId: string): ChaveCommand => ({ type: 'LiberarChave', chave, recebedorId, now });
const claimed: ChaveEvent[] = [{ type: 'ChaveReivindicada', data: { chave, recebedorId: 'loja1', em: now.toISOString() } }];

describe('Pix key claim decider', () => {
  it('gives a free key to the first receiver, again to the same one as a no-op, never to a second', () => {
    spec.given([]).when(claim('loja1')).then(claimed);
    spec.given(claimed).when(claim('loja1')).then([]);
    const error = spec.given(claimed).when(claim('loja2')).thenThrows('ChaveJaVinculada');
    expect(error.detail).toContain('loja1');
  });

  it('releases only for its holder, after which another receiver may claim it', () => {
    const released = spec.given(claimed).when(release('loja1')).then([{ type: 'ChaveLiberada', data: { chave, recebedorId: 'loja1', em: now.toISOString() } }]);
    spec.given([...claimed, ...released]).when(claim('loja2')).then((e) => expect(e).toMatchObject([{ type: 'ChaveReivindicada', data: { recebedorId: 'loja2' } }]));
    spec.given(claimed).when(release('loja2')).thenThrows('ChaveNaoVinculada');
    spec.given([]).when(release('loja1')).thenThrows('ChaveNaoVinculada');
  });

  it('refuses what is not a Pix key (a CPF with wrong check digits)', () => {
    spec.given([]).when(claim('loja1', '12345678900')).thenThrows('ChaveInvalida', ['chave']);
  });

  it('knows who held the key at any instant: a Pix belongs to the holder at its horario (the first holder before any claim, nobody in a gap)', () => {
    const at = (iso: string) => new Date(iso);
    const event = (type: ChaveEvent['type'], recebedorId: string, em: string): ChaveEvent => ({ type, data: { chave, recebedorId, em } }) as ChaveEvent;
    const history = [
      event('ChaveReivindicada', 'loja1', '2026-11-01T00:00:00.000Z'),
      event('ChaveLiberada', 'loja1', '2026-11-10T00:00:00.000Z'),
      event('ChaveReivindicada', 'loja2', '2026-11-12T00:00:00.000Z'),
    ];
    const state = history.reduce<ChaveState>((s, e) => chaveDecider.evolve(s, e), chaveDecider.initialState);
    expect(state.dono).toBe('loja2');
    expect(holderAt(state, at('2026-10-31T23:59:59.999Z'))).toBe('loja1'); // older than the key's first claim here: came with it
    expect(holderAt(state, at('2026-11-01T00:00:00.000Z'))).toBe('loja1');
    expect(holderAt(state, at('2026-11-09T23:59:59.999Z'))).toBe('loja1');
    expect(holderAt(state, at('2026-11-10T00:00:00.000Z'))).toBeUndefined(); // released: nobody's until loja2 claims it
    expect(holderAt(state, at('2026-11-12T00:00:00.000Z'))).toBe('loja2');
    expect(holderAt(state, at('2030-01-01T00:00:00.000Z'))).toBe('loja2');
    expect(holderAt(state, new Date(Number.NaN))).toBeUndefined();
    expect(holderAt(chaveDecider.initialState, at('2026-11-05T00:00:00.000Z'))).toBeUndefined();
  });
});
