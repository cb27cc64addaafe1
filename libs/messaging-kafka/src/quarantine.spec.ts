import type { KafkaMessage } from 'kafkajs';
import { handleWithQuarantine } from './quarantine';

// An operator audit (2026-11-28) closed the database for 24 s with one slice in hand: the message
// tried alone restarted its five attempts every 3 s while the probe failed, with a stack each
// time (32 error lines, 8 stacks; a 10-minute outage ~800 lines per partition in hand).
jest.setTimeout(30_000);

describe('handleWithQuarantine through an outage', () => {
  it('waits for the dependencies quietly, goes on within seconds of their return, and dead-letters nothing', async () => {
    const lines: string[] = [];
    const info: string[] = [];
    const deps = { logger: { error: (m: string) => void lines.push(m), log: (m: string) => void info.push(m) }, stopped: () => false, heartbeat: async () => undefined };
    const downUntil = Date.now() + 9_000;
    const down = () => Date.now() < downUntil;
    const handled: string[] = [];
    const message = { offset: '8' } as KafkaMessage;
    const quarantined = await handleWithQuarantine(['a'], [undefined], [message], 'g: t/0/8-8', deps, {
      run: async (batch) => {
        if (down()) throw new Error('database "pix" is not currently accepting connections');
        handled.push(...batch);
      },
      healthy: async () => !down(),
      deadLetter: async () => {
        throw new Error('no dead letter during an outage');
      },
    });
    expect(Date.now() - downUntil).toBeLessThan(2500); // goes on within about a second of the end
    expect(quarantined).toEqual([]);
    expect(handled).toEqual(['a']);
    expect(lines.filter((l) => l.includes('\n    at ')).length).toBeLessThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(16);
    // The wait's end is said, so the operator who read "waiting" knows it is over.
    expect(info).toEqual([expect.stringMatching(/^g: t\/0\/8-8: offset 8 alone: the database and the event store answer again after \d+ s; handling it again$/)]);
  });
});
