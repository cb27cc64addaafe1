import type { ReplayOutcome, StoredDeadLetter } from '@pix/messaging-kafka';
import { EXIT, runDeadLetters, type DeadLetterOps } from './cli';

const letter = (id: string, value: string, reason: string, consumer = 'pix-notifier'): StoredDeadLetter => ({
  id,
  source: `pix.cash-in.v1/0/${id.split('/')[1]}`,
  consumer,
  reason,
  key: Buffer.from('chave'),
  value: Buffer.from(value),
});

const VALID = '{"versao":1,"endToEndId":"E12345678202611221500abcdefghijk"}';

function harness(letters: StoredDeadLetter[]) {
  const replayed: StoredDeadLetter[][] = [];
  const ops: DeadLetterOps = {
    read: async () => letters,
    replay: async (chosen): Promise<ReplayOutcome> => {
      replayed.push(chosen);
      return { replayed: chosen, copies: [], invalid: [] };
    },
    check: (l) => (l.value?.toString() === VALID ? undefined : 'not JSON'),
  };
  const out: string[] = [];
  const err: string[] = [];
  return { run: (argv: string[]) => runDeadLetters(argv, ops, (l) => out.push(l), (l) => err.push(l)), replayed, out, err };
}

describe('npm run dead-letters', () => {
  it('lists each dead letter on one line, control characters and CPFs in reasons removed', async () => {
    const h = harness([letter('0/3', VALID, 'handler failed 5 times: payer 123.456.789-09\u001b[2J'), letter('1/0', 'x', 'not JSON', 'pix-api-settlement')]);
    expect(await h.run(['list'])).toBe(EXIT.ok);
    expect(h.out[0]).toBe('2 dead letter(s)');
    expect(h.out[1]).toMatch(/^0\/3 {2}source pix\.cash-in\.v1\/0\/3 {2}consumer pix-notifier {2}endToEndId E12345678202611221500abcdefghijk {2}valid now {2}reason: handler failed 5 times: payer /);
    expect(h.out[1]).not.toMatch(/123\.456\.789-09|\u001b/);
    expect(h.out[2]).toBe('1/0  source pix.cash-in.v1/0/0  consumer pix-api-settlement  endToEndId -  invalid now (not JSON)  reason: not JSON');
  });

  it('lists a letter stored without its bytes as that, not as an empty message', async () => {
    const bare = { ...letter('2/7', '', 'not JSON'), value: null, omitted: 'value of 1048476 bytes; the message remains at pix.cash-in.v1/2/7' };
    const h = harness([bare]);
    expect(await h.run(['list'])).toBe(EXIT.ok);
    expect(h.out[1]).toContain('invalid now (not stored whole here: value of 1048476 bytes; the message remains at pix.cash-in.v1/2/7)');
  });

  it('replays the ids named, or all of them; an unknown id replays nothing', async () => {
    const h = harness([letter('0/3', VALID, 'r'), letter('1/0', VALID, 'r')]);
    expect(await h.run(['replay', '1/0'])).toBe(EXIT.ok);
    expect(await h.run(['replay', '--all'])).toBe(EXIT.ok);
    expect(h.replayed.map((c) => c.map((l) => l.id))).toEqual([['1/0'], ['0/3', '1/0']]);
    expect(await h.run(['replay', '1/0', '2/9'])).toBe(EXIT.refused);
    expect(h.err).toEqual(['no dead letter 2/9 (see `list`); nothing replayed']);
    expect(h.replayed).toHaveLength(2);
  });

  it.each([[[]], [['replay']], [['replay', '--all', '0/1']], [['replay', 'constructor']], [['list', 'extra']], [['drop']]])('answers %j with the usage and replays nothing', async (argv) => {
    const h = harness([letter('0/1', VALID, 'r')]);
    expect(await h.run(argv)).toBe(EXIT.usage);
    expect(h.err[0]).toMatch(/^Usage: npm run dead-letters/);
    expect(h.replayed).toEqual([]);
  });
});
