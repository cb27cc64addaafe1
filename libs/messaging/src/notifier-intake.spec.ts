import type { PixRecebidoMessage } from '@pix/contracts';
import type { PixNotificationInput } from '@pix/webhook-delivery';
import { notifyCashIns } from './notifier-intake';

const pix = (n: number, chave: string, txid: string | null = `txid${n}`.padEnd(26, '0')): PixRecebidoMessage => ({
  versao: 1,
  endToEndId: `E12345678202611221015${String(n).padStart(11, '0')}`,
  ...(txid ? { txid } : {}),
  chave,
  valor: '1.00',
  horario: '2026-11-22T10:15:00.000Z',
  pagador: { cpf: '12345678909', nome: 'Fulano' },
});

describe('notifier intake (a batch)', () => {
  it('reads each key once, keeps Pix with a txid whose key has a webhook, and stores them in one call, in order', async () => {
    const asked: string[] = [];
    const registrations = { urlFor: async (chave: string) => (asked.push(chave), chave === 'no-hook' ? undefined : `https://example.com/${chave}`) };
    const calls: PixNotificationInput[][] = [];
    const sink = { enqueueMany: async (inputs: PixNotificationInput[]) => (calls.push(inputs), { created: inputs.length }) };
    const batch = [pix(1, 'a'), pix(2, 'no-hook'), pix(3, 'a', null), pix(4, 'b'), pix(5, 'a')];
    expect(await notifyCashIns(batch, registrations, sink)).toEqual({ created: 3 });
    expect(asked.sort()).toEqual(['a', 'b', 'no-hook']);
    expect(calls).toHaveLength(1);
    expect(calls[0].map((c) => c.endToEndId)).toEqual([batch[0], batch[3], batch[4]].map((m) => m.endToEndId));
    // The official Pix: no versao, no payer.
    expect(calls[0][0]).toEqual({ endToEndId: batch[0].endToEndId, chave: 'a', txid: batch[0].txid, pix: { endToEndId: batch[0].endToEndId, txid: batch[0].txid, chave: 'a', valor: '1.00', horario: '2026-11-22T10:15:00.000Z' } });
  });

  it('stores nothing (and asks no sink) when no Pix qualifies', async () => {
    const sink = { enqueueMany: jest.fn() };
    expect(await notifyCashIns([pix(1, 'x', null)], { urlFor: async () => 'https://example.com' }, sink)).toEqual({ created: 0 });
    expect(sink.enqueueMany).not.toHaveBeenCalled();
  });
});
