import { locationDecider, locKeyOfStream, locStreamId, type LocationCommand, type LocationEvent } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(locationDecider);
const now = new Date('2026-11-22T15:00:00.000Z');
const em = now.toISOString();
const A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
const criar: LocationCommand = { type: 'CriarLocation', id: 42, tipoCob: 'cobv', location: 'pix.example.com/qr/v2/cobv/abc', recebedorId: 'loja', now };
const vincular = (txid: string, tipoCob: 'cob' | 'cobv' = 'cobv'): LocationCommand => ({ type: 'VincularLocation', txid, tipoCob, now });
const desvincular: LocationCommand = { type: 'DesvincularLocation', now };
const criada: LocationEvent = { type: 'LocationCriada', data: { id: 42, tipoCob: 'cobv', location: 'pix.example.com/qr/v2/cobv/abc', criacao: em, recebedorId: 'loja' } };
const vinculadaA: LocationEvent = { type: 'LocationVinculada', data: { txid: A, em } };

describe('location decider', () => {
  it('creates a location once; a retried creation changes nothing', () => {
    spec.given([]).when(criar).then([criada]);
    spec.given([criada]).when(criar).then([]);
  });

  it('links a free location to a charge, and the same txid again is no new event', () => {
    spec.given([criada]).when(vincular(A)).then([vinculadaA]);
    spec.given([criada, vinculadaA]).when(vincular(A)).then([]);
  });

  it('refuses a location that serves another charge, or is of another tipoCob, or does not exist', () => {
    spec.given([criada, vinculadaA]).when(vincular(B)).thenThrows('PayloadLocationOperacaoInvalida', ['loc.id']);
    spec.given([criada]).when(vincular(A, 'cob')).thenThrows('PayloadLocationOperacaoInvalida', ['loc.id']);
    spec.given([]).when(vincular(A)).thenThrows('PayloadLocationNaoEncontrado');
    spec.given([]).when(desvincular).thenThrows('PayloadLocationNaoEncontrado');
  });

  it('unlinks idempotently, after which another charge may take it', () => {
    const desvinculada: LocationEvent = { type: 'LocationDesvinculada', data: { txid: A, em } };
    spec.given([criada, vinculadaA]).when(desvincular).then([desvinculada]);
    spec.given([criada, vinculadaA, desvinculada]).when(desvincular).then([]);
    spec.given([criada]).when(desvincular).then([]);
    spec.given([criada, vinculadaA, desvinculada]).when(vincular(B)).then([{ type: 'LocationVinculada', data: { txid: B, em } }]);
  });

  it('keys streams by receiver and id, and reads the key back only from location streams', () => {
    expect(locStreamId('loja', 42)).toBe('loc-loja/42');
    expect(locKeyOfStream('loc-loja/42')).toBe('loja/42');
    expect(locKeyOfStream('cobv-loja/42')).toBeUndefined();
    expect(locKeyOfStream('loc-42')).toBeUndefined();
  });
});
