import { KafkaJSNonRetriableError, KafkaJSProtocolError, type Message } from 'kafkajs';
import { isTooLarge } from './retrying';
import { DEAD_LETTER_SEND_BYTES, approximateBytes, deadLetterOf, storeDeadLetters } from './validated-batch';

// How dead letters are cut into sends and what is stored of one the topic refuses as too large;
// the real broker's answers are in dead-lettering.int.ts.
const where = { topic: 'pix.cash-in.v1', partition: 2, consumerName: 'group-a' };
const letter = (offset: number, bytes: number) => deadLetterOf({ key: Buffer.from('k'), value: Buffer.alloc(bytes, 'x'), offset: String(offset), timestamp: '0', attributes: 0, headers: {} }, 'not JSON', where);
/** What the broker answers to a record batch over 1 MB, as kafkajs's producer rejects with it. */
const tooLarge = () => new KafkaJSNonRetriableError(new KafkaJSProtocolError({ type: 'MESSAGE_TOO_LARGE', code: 10, retriable: false, message: 'The request included a message larger than the max message size the server will accept' } as never));

/** A topic that takes at most `limit` bytes a send, recording what it took. */
function topicOf(limit: number) {
  const sends: Message[][] = [];
  const send = async (messages: Message[]) => {
    if (messages.reduce((sum, m) => sum + approximateBytes(m), 0) > limit) throw tooLarge();
    sends.push(messages);
  };
  return { sends, send };
}
const once = (work: () => Promise<unknown>) => work().then(() => undefined);

describe('storeDeadLetters', () => {
  it('sends a slice of refused messages in sends bounded by bytes, in order, at least one message each', async () => {
    const topic = topicOf(Infinity);
    const letters = Array.from({ length: 500 }, (_, i) => letter(i, 2000));
    await storeDeadLetters(topic.send, letters, once, () => undefined);
    expect(topic.sends.length).toBeGreaterThan(3);
    expect(topic.sends.every((s) => s.length > 0 && s.reduce((sum, m) => sum + approximateBytes(m), 0) <= DEAD_LETTER_SEND_BYTES)).toBe(true);
    expect(topic.sends.flat().map((m) => m.headers?.['dlt-source'])).toEqual(letters.map((l) => l.source));
  });

  it('stores a letter the topic refuses as too large without its value (then without key and headers), says so and warns', async () => {
    const warnings: string[] = [];
    const topic = topicOf(1_048_588);
    const big = letter(7, 1_048_576);
    await storeDeadLetters(topic.send, [letter(6, 10), big, letter(8, 10)], once, (w) => void warnings.push(w));
    const stored = topic.sends.flat();
    expect(stored.map((m) => [m.headers?.['dlt-source'], m.value === null ? null : 'bytes'])).toEqual([
      ['pix.cash-in.v1/2/6', 'bytes'],
      ['pix.cash-in.v1/2/7', null],
      ['pix.cash-in.v1/2/8', 'bytes'],
    ]);
    expect(stored[1].key?.toString()).toBe('k');
    expect(stored[1].headers?.['dlt-omitted']).toBe('value of 1048576 bytes, too large for this topic; the message remains at pix.cash-in.v1/2/7 (topic/partition/offset) until that topic\'s retention drops it');
    expect(warnings).toEqual([expect.stringMatching(/^pix\.cash-in\.v1\/2\/7: its dead letter \(\d+ bytes\) is larger than the dead-letter topic takes; stored without its value of 1048576 bytes/)]);

    const tiny = topicOf(1000); // a key and a header too large even without the value: key and the message's headers go too
    const bigKey = { ...letter(9, 10), key: Buffer.alloc(2000, 'k'), headers: { 'x-correlation-id': 'c', 'dlt-replayed-from': 'x'.repeat(2000), ...letter(9, 10).headers } };
    await storeDeadLetters(tiny.send, [bigKey], once, () => undefined);
    expect(tiny.sends.flat().map((m) => [m.key, m.value, Object.keys(m.headers ?? {})])).toEqual([[null, null, ['dlt-reason', 'dlt-consumer', 'dlt-source', 'dlt-omitted']]]);
  });

  it('retries other failures (broker down) as the caller retries', async () => {
    const topic = topicOf(Infinity);
    let failures = 2;
    const flaky = async (messages: Message[]) => (failures-- > 0 ? Promise.reject(new Error('Connection error')) : topic.send(messages));
    const retry = async (work: () => Promise<unknown>) => {
      for (;;) if (await work().then(() => true, () => false)) return;
    };
    await storeDeadLetters(flaky, [letter(1, 10)], retry, () => undefined);
    expect(topic.sends.flat().map((m) => m.value?.length)).toEqual([10]);
  });

  it('tells a too-large answer from other failures', () => {
    expect(isTooLarge(tooLarge())).toBe(true);
    expect(isTooLarge(new Error('Connection error: connect ECONNREFUSED'))).toBe(false);
    expect(isTooLarge(undefined)).toBe(false);
  });
});
