import type { PixRecebidoMessage } from '@pix/contracts';
import { InProcessCashInBus } from './in-process-bus';

const message: PixRecebidoMessage = { versao: 1, endToEndId: 'E12345678202611271500abcdefghijk', chave: '+5511999998888', valor: '10.00', horario: '2026-11-27T00:00:00-03:00' };

describe('in-process cash-in bus', () => {
  it('hands every subscriber the contract-validated message, horario in UTC with milliseconds', async () => {
    const bus = new InProcessCashInBus(() => new Date('2026-11-27T03:00:00Z'));
    const seen: PixRecebidoMessage[][] = [];
    bus.subscribe('settlement', async (batch) => void seen.push(batch));
    bus.subscribe('notifier', async (batch) => void seen.push(batch));
    await bus.publish(message);
    expect(seen).toEqual([[{ ...message, horario: '2026-11-27T03:00:00.000Z' }], [{ ...message, horario: '2026-11-27T03:00:00.000Z' }]]);
  });

  it('refuses, judged at the publish time, a horario more than 5 minutes after it, and calls no handler', async () => {
    const handler = jest.fn(async () => undefined);
    const bus = new InProcessCashInBus();
    bus.subscribe('settlement', handler);
    await expect(bus.publish({ ...message, horario: '2099-01-01T00:00:00Z' })).rejects.toThrow(/horario 2099-01-01T00:00:00.000Z is after the message was published/);
    const early = new InProcessCashInBus(() => new Date('2026-11-27T02:54:59.999Z'));
    early.subscribe('settlement', handler);
    await expect(early.publish(message)).rejects.toThrow(/by more than 5 minutes/);
    expect(handler).not.toHaveBeenCalled();
  });
});
