import { chaveDecider, type ChaveCommand, type ChaveEvent } from '..';
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
});
