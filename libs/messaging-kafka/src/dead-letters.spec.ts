import { KafkaJSProtocolError } from 'kafkajs';
import { idRanges, publishInSends, ReplayInterrupted, type ReplayOutcome, type StoredDeadLetter } from './dead-letters';

// A replay that fails part way says exactly what was published; the real broker's side (bounded
// sends, a letter too large for the topic) is in dead-letters.int.ts.
const letter = (id: string): StoredDeadLetter => ({ id, source: `t/0/${id}`, consumer: 'g', reason: 'r', key: null, value: Buffer.from('{}') });
const outcome = (): ReplayOutcome => ({ replayed: [], copies: [], invalid: [] });

describe('publishInSends', () => {
  it('stops at a failure that is not "too large", naming what was replayed and what was not', async () => {
    const sends = [['0/0', '0/1'], ['0/2', '0/3'], ['0/4'], ['1/0', '1/1']].map((s) => s.map(letter));
    let calls = 0;
    const send = async () => {
      if (++calls === 3) throw new Error('Connection error: connect ECONNREFUSED');
    };
    const progress: string[][] = [];
    const result = outcome();
    const failure = await publishInSends(send, sends, result, (sent) => void progress.push(sent.map((l) => l.id))).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ReplayInterrupted);
    expect(progress).toEqual([['0/0', '0/1'], ['0/2', '0/3']]);
    expect(result.replayed.map((l) => l.id)).toEqual(['0/0', '0/1', '0/2', '0/3']);
    expect((failure as ReplayInterrupted).unconfirmed.map((l) => l.id)).toEqual(['0/4', '1/0', '1/1']);
    expect((failure as ReplayInterrupted).message).toBe(
      'replay stopped after 4 of 7 publish(es): Connection error: connect ECONNREFUSED. Replayed: 0/0-3. Not replayed (or not confirmed; replaying them again is harmless): 0/4, 1/0-1. Skipped: 0 copies, 0 invalid or too large.',
    );
  });

  it('sends each letter of a send the topic refuses as too large alone, and skips the one too large alone', async () => {
    const tooLarge = new KafkaJSProtocolError({ type: 'MESSAGE_TOO_LARGE', code: 10, retriable: false, message: 'The request included a message larger than the max message size the server will accept' } as never);
    const send = async (some: StoredDeadLetter[]) => {
      if (some.some((l) => l.id === '0/1')) throw tooLarge;
    };
    const result = outcome();
    await publishInSends(send, [['0/0', '0/1', '0/2'].map(letter)], result);
    expect(result.replayed.map((l) => l.id)).toEqual(['0/0', '0/2']);
    expect(result.invalid.map((i) => [i.letter.id, i.error])).toEqual([['0/1', 'larger than the topic takes (the broker answered MESSAGE_TOO_LARGE)']]);
  });

  it('writes ids as ranges of consecutive offsets per partition', () => {
    expect(idRanges(['0/0', '0/1', '0/2', '0/5', '1/3', '1/4', '2/9'].map(letter))).toBe('0/0-2, 0/5, 1/3-4, 2/9');
    expect(idRanges([])).toBe('');
  });
});
