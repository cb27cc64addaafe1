import type { PixRecebidoMessage } from '@pix/contracts';
import type { IntakeItem, PixNotificationInput } from '@pix/webhook-delivery';
import { chaveDecider, type ChaveEvent, type ChaveState } from '@pix/domain';
import type { KeyHistory } from './key-history';
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

/** A key's history from its claims and releases, as its stream folds them. */
const history = (...events: [ChaveEvent['type'], string, string][]): ChaveState =>
  events.map(([type, recebedorId, em]) => ({ type, data: { chave: 'k', recebedorId, em } }) as ChaveEvent).reduce(chaveDecider.evolve, chaveDecider.initialState);
const neverClaimed: KeyHistory = { of: async () => chaveDecider.initialState };
const notifiedOf = (items: IntakeItem[]): PixNotificationInput[] => items.filter((i): i is PixNotificationInput => !('skipped' in i));

describe('notifier intake (a batch)', () => {
  it('reads each key once, keeps Pix with a txid whose key has a webhook, and stores them in one call, in order', async () => {
    const asked: string[] = [];
    const registrations = { urlFor: async (chave: string) => (asked.push(chave), chave === 'no-hook' ? undefined : `https://example.com/${chave}`) };
    const calls: IntakeItem[][] = [];
    const sink = { enqueueMany: async (inputs: IntakeItem[]) => (calls.push(inputs), { created: notifiedOf(inputs).length }) };
    const batch = [pix(1, 'a'), pix(2, 'no-hook'), pix(3, 'a', null), pix(4, 'b'), pix(5, 'a')];
    expect(await notifyCashIns(batch, registrations, neverClaimed, sink)).toEqual({ created: 3 });
    expect(asked.sort()).toEqual(['a', 'b', 'no-hook']);
    expect(calls).toHaveLength(1);
    // Every Pix goes, in order; those not notified as skipped (they still are their endToEndId's first copy).
    expect(calls[0].map((c) => c.endToEndId)).toEqual(batch.map((m) => m.endToEndId));
    expect(calls[0].map((c) => 'skipped' in c)).toEqual([false, true, true, false, false]);
    // The official Pix: no versao, no payer.
    expect(calls[0][0]).toEqual({ endToEndId: batch[0].endToEndId, chave: 'a', txid: batch[0].txid, pix: { endToEndId: batch[0].endToEndId, txid: batch[0].txid, chave: 'a', valor: '1.00', horario: '2026-11-22T10:15:00.000Z' } });
  });

  it('hands over a Pix that does not qualify as skipped only, and asks no sink for an empty batch', async () => {
    const sink = { enqueueMany: jest.fn(async () => ({ created: 0 })) };
    const batch = [pix(1, 'x', null)];
    expect(await notifyCashIns(batch, { urlFor: async () => 'https://example.com' }, neverClaimed, sink)).toEqual({ created: 0 });
    expect(sink.enqueueMany).toHaveBeenCalledWith([{ endToEndId: batch[0].endToEndId, skipped: true }]);
    sink.enqueueMany.mockClear();
    expect(await notifyCashIns([], { urlFor: async () => 'https://example.com' }, neverClaimed, sink)).toEqual({ created: 0 });
    expect(sink.enqueueMany).not.toHaveBeenCalled();
  });

  it("tells the key's current holder only of Pix paid while it held the key: a lagging intake never hands a former holder's Pix to the new one", async () => {
    // loja1 held 'k' until 10:00; loja2 has held it since 10:05 and registered the webhook now found.
    const moved = history(['ChaveReivindicada', 'loja1', '2026-11-22T08:00:00.000Z'], ['ChaveLiberada', 'loja1', '2026-11-22T10:00:00.000Z'], ['ChaveReivindicada', 'loja2', '2026-11-22T10:05:00.000Z']);
    const at = (n: number, horario: string) => ({ ...pix(n, 'k'), horario });
    const batch = [at(1, '2026-11-22T09:59:59.999Z'), at(2, '2026-11-22T10:02:00.000Z'), at(3, '2026-11-22T10:05:00.000Z'), at(4, '2026-11-22T11:00:00.000Z')];
    const calls: PixNotificationInput[][] = [];
    const sink = { enqueueMany: async (inputs: IntakeItem[]) => (calls.push(notifiedOf(inputs)), { created: notifiedOf(inputs).length }) };
    expect(await notifyCashIns(batch, { urlFor: async () => 'https://loja2.example.com' }, { of: async () => moved }, sink)).toEqual({ created: 2 });
    expect(calls[0].map((c) => c.endToEndId)).toEqual([batch[2].endToEndId, batch[3].endToEndId]);
    // Released and not claimed again: no current holder, nobody is told.
    const released = history(['ChaveReivindicada', 'loja1', '2026-11-22T08:00:00.000Z'], ['ChaveLiberada', 'loja1', '2026-11-22T10:00:00.000Z']);
    expect(await notifyCashIns(batch, { urlFor: async () => 'https://loja1.example.com' }, { of: async () => released }, sink)).toEqual({ created: 0 });
  });
});
