import type { KafkaMessage } from 'kafkajs';
import { CASH_IN_TOPIC } from '@pix/contracts';
import { CASH_IN_CONTRACT } from './cash-in-contract';
import { cappedReason, deadLetterOf, inSends, MAX_REASON_CHARS, recordTimestamp, validateBatch } from './validated-batch';

const where = { topic: CASH_IN_TOPIC, partition: 0, consumerName: 'group-a' };
const record = (horario: string, timestamp: string, offset = '7') =>
  ({ key: Buffer.from('k'), value: Buffer.from(JSON.stringify({ versao: 1, endToEndId: 'E12345678202611271500abcdefghijk', chave: 'k', valor: '1.00', horario })), offset, timestamp, headers: {}, attributes: 0 }) as KafkaMessage;

describe('validateBatch with the cash-in contract', () => {
  it('judges horario by the record timestamp, not the consumer clock: up to 5 minutes after it passes, normalised to UTC', () => {
    const published = String(Date.parse('2026-11-27T03:00:00Z'));
    const { valid, deadLetters } = validateBatch([record('2026-11-27T00:05:00-03:00', published), record('2026-11-27T03:05:00.001Z', published, '8')], where, CASH_IN_CONTRACT[CASH_IN_TOPIC]);
    expect(valid.map((m) => m.horario)).toEqual(['2026-11-27T03:05:00.000Z']);
    expect(deadLetters.map((d) => [d.source, d.headers?.['dlt-reason']])).toEqual([
      [`${CASH_IN_TOPIC}/0/8`, 'horario 2026-11-27T03:05:00.001Z is after the message was published (2026-11-27T03:00:00.000Z) by more than 5 minutes of clock skew'],
    ]);
  });

  it('reads no timestamp ("-1", garbage) as none', () => {
    expect(recordTimestamp({ timestamp: '1764212400000' }).toISOString()).toBe('2025-11-27T03:00:00.000Z');
    expect(Number.isNaN(recordTimestamp({ timestamp: '-1' }).getTime())).toBe(true);
    expect(Number.isNaN(recordTimestamp({ timestamp: 'x' }).getTime())).toBe(true);
  });
});

describe('dead letters', () => {
  it('caps dlt-reason at 1,000 characters, ending with an ellipsis and the full length', () => {
    const reason = `unknown field(s): ${Array.from({ length: 5000 }, (_, i) => `m${i}`).join(', ')}`;
    const letter = deadLetterOf(record('2026-11-27T03:00:00Z', '0'), reason, where);
    expect(letter.headers?.['dlt-reason']).toHaveLength(MAX_REASON_CHARS);
    expect(letter.reason).toBe(letter.headers?.['dlt-reason']);
    expect(letter.reason).toMatch(new RegExp(`^unknown field\\(s\\): m0, m1, .*… \\(${reason.length} characters in all\\)$`));
    expect(cappedReason('not JSON')).toBe('not JSON');
    // Never half a surrogate pair, which UTF-8 cannot carry.
    expect(cappedReason('a' + '😀'.repeat(2000))).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('cuts messages into sends of at most so many bytes, at least one message each', () => {
    const m = (bytes: number) => ({ key: null, value: Buffer.alloc(bytes) });
    expect(inSends([m(100), m(100), m(5000), m(100)], 500).map((s) => s.map((x) => x.value.length))).toEqual([[100, 100], [5000], [100]]);
    expect(inSends([])).toEqual([]);
  });
});
