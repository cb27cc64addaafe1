import type { PixRecebidoMessage } from '@pix/contracts';
import { SettleCashIn } from './settle-cash-in';

const pix = (n: number, txid?: string): PixRecebidoMessage => ({ versao: 1, endToEndId: `E${String(n).padStart(31, '0')}`, ...(txid ? { txid } : {}), chave: 'k', valor: '1.00', horario: '2026-11-22T10:15:00.000Z' });

/** SettleCashIn with `handle` replaced: what the batch logic does around it. */
function settleWith(handle: (m: PixRecebidoMessage) => Promise<void>): SettleCashIn {
  const settle = Object.create(SettleCashIn.prototype) as SettleCashIn;
  settle.handle = handle;
  return settle;
}
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('settlement of a batch', () => {
  it('settles different charges at once (bounded) and one charge in the batch order', async () => {
    let running = 0;
    let peak = 0;
    const done: string[] = [];
    const settle = settleWith(async (m) => {
      peak = Math.max(peak, ++running);
      await tick();
      done.push(m.endToEndId);
      running--;
    });
    const batch = Array.from({ length: 60 }, (_, i) => pix(i, `charge${i % 20}`));
    await settle.handleBatch(batch);
    expect(done.sort()).toEqual(batch.map((m) => m.endToEndId).sort());
    expect(peak).toBe(16);
    for (let c = 0; c < 20; c++) {
      const ofCharge = batch.filter((m) => m.txid === `charge${c}`).map((m) => m.endToEndId);
      expect(done.filter((e) => ofCharge.includes(e))).toEqual(ofCharge);
    }
  });

  it('records a repeated endToEndId after its first copy, even when the copies name different charges', async () => {
    const done: string[] = [];
    const settle = settleWith(async (m) => {
      // The first copy's charge has more Pix ahead of it: a lane of its own would start later.
      await tick();
      done.push(`${m.endToEndId.slice(-2)}:${m.txid}`);
    });
    const first = { ...pix(99, 'chargeA') };
    const second = { ...pix(99, 'chargeB') };
    await settle.handleBatch([pix(1, 'chargeA'), pix(2, 'chargeA'), first, second, pix(3, 'chargeB')]);
    expect(done.indexOf('99:chargeA')).toBeLessThan(done.indexOf('99:chargeB'));
  });

  it('fails the batch after every started lane has finished, so a retry never overlaps it', async () => {
    let running = 0;
    const settle = settleWith(async (m) => {
      running++;
      await tick();
      running--;
      if (m.endToEndId === pix(3).endToEndId) throw new Error('database down');
    });
    await expect(settle.handleBatch(Array.from({ length: 40 }, (_, i) => pix(i)))).rejects.toThrow('database down');
    expect(running).toBe(0);
  });
});
