import { cobvStreamId, locStreamId, type CobVEvent, type LocationEvent } from '@pix/domain';
import { cobvProjection } from '../cobv/cobv-projection';
import { projectionSpec, recorded } from '../testing/projection-spec';
import { locProjection } from './loc-projection';

// A charge unlinked from its implicit location, then given a POST /loc location by PATCH (ADR 12):
// both read models show the new location, and the freed implicit one stays without txid.
const txid = 'projectionlink000000000000001';
const em = '2026-11-22T12:00:00.000Z';
const cobranca = { calendario: { dataDeVencimento: '2026-12-01', validadeAposVencimento: 30 }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: 1000 }, chave: '+5581999990000' };
const explicit = { id: 42, location: 'pix.example/qr/v2/cobv/0123456789abcdef0123456789abcdef', criacao: em };
const charge: CobVEvent[] = [
  { type: 'CobVCriada', data: { txid, criacao: em, cobranca, loc: { id: 7, location: 'pix.example/qr/v2/cobv/implicit', criacao: em }, recebedor: { id: 'local', nome: 'Loja', logradouro: 'R', cidade: 'Recife', uf: 'PE', cep: '50000000' } } },
  { type: 'CobVLocationDesvinculada', data: { txid, em, locId: 7 } },
  { type: 'CobVLocationVinculada', data: { txid, em, loc: explicit } },
  { type: 'CobVRevisada', data: { txid, revisao: 1, em, cobranca, via: 'PATCH' } },
];
const location: LocationEvent[] = [
  { type: 'LocationCriada', data: { id: 42, tipoCob: 'cobv', location: explicit.location, criacao: em, recebedorId: 'local' } },
  { type: 'LocationVinculada', data: { txid, em } },
];

describe('rm_loc and rm_cobv after PATCH gives an unlinked charge a location', () => {
  const events = [...recorded(location, locStreamId('local', 42)), ...recorded(charge, cobvStreamId('local', txid))];

  it('rm_loc: the new location names the txid, the freed implicit one none', () => {
    const spec = projectionSpec(locProjection).given(events);
    spec.then('local/42', (row) => expect(row).toMatchObject({ id: 42, txid, explicita: true }));
    spec.then('local/7', (row) => expect(row).not.toHaveProperty('txid'));
  });

  it('rm_cobv: the charge has the location (and so its token), kept by a later revision', () => {
    projectionSpec(cobvProjection).given(events).then(`local/${txid}`, (row) => {
      expect(row).toMatchObject({ loc: explicit, revisao: 1 });
      expect(cobvProjection.columns.find((c) => c.name === 'location_token')!.value(row!)).toBe('0123456789abcdef0123456789abcdef');
    });
  });
});

describe('rm_loc: a POST /loc location serves whom its own stream says', () => {
  it('a late CobVCriada of a charge whose claim a DELETE undid names nobody; the holder stays', () => {
    // D claims 42, a DELETE frees it, B claims and links it; then D's charge lands on 42 and lets it go.
    const [D, B] = ['projectionlate00000000000000D', 'projectionlate00000000000000B'];
    const onLoc = { ...explicit };
    const events = [
      ...recorded([{ type: 'LocationCriada', data: { id: 42, tipoCob: 'cobv', location: explicit.location, criacao: em, recebedorId: 'local' } }], locStreamId('local', 42)),
      ...recorded([{ type: 'LocationVinculada', data: { txid: D, em } }, { type: 'LocationDesvinculada', data: { txid: D, em } }, { type: 'LocationVinculada', data: { txid: B, em } }], locStreamId('local', 42)),
      ...recorded([{ type: 'CobVLocationVinculada', data: { txid: B, em, loc: onLoc } }], cobvStreamId('local', B)),
      ...recorded([{ type: 'CobVCriada', data: { ...charge[0].data, txid: D, loc: onLoc } }, { type: 'CobVLocationDesvinculada', data: { txid: D, em, locId: 42 } }], cobvStreamId('local', D)),
    ];
    projectionSpec(locProjection).given(events).then('local/42', (row) => expect(row).toMatchObject({ id: 42, txid: B, explicita: true }));
  });
});
