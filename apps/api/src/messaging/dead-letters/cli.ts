import type { KafkaLogSink, ReplayOutcome, StoredDeadLetter } from '@pix/messaging-kafka';
import { scrubText } from '@pix/observability';

export const USAGE = `Usage: npm run dead-letters -- <command>   (needs KAFKA_BROKERS)

  list               every message in the cash-in dead-letter topic: id, where it was consumed,
                     which consumer group refused it and why, and whether the contract takes it now
  replay --all       publish every dead letter the contract takes now to the cash-in topic again
  replay <id>...     only these (ids as \`list\` prints them, e.g. 0/17)

Consumers are idempotent by endToEndId: a replayed cash-in settles and notifies at most once, and
replaying twice is harmless. A message refused by both consumer groups is stored twice and replayed once.`;

export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** Errors that mean the cluster was not reached (kafkajs's connection errors, DNS), not a refusal of ours. */
const UNREACHABLE = /Connection (error|timeout)|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|Failed to connect/;

/**
 * The command's last line when it fails: what failed and, for a cluster it could not reach (an
 * operator's usual case: a wrong KAFKA_BROKERS, the broker down), what to do about it.
 */
export function failureLine(error: unknown, brokers: string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const fix = UNREACHABLE.test(message) ? `. Fix: start the Kafka cluster, or correct KAFKA_BROKERS (${brokers.join(',')}), then run the command again` : '';
  return `dead-letters failed: ${message}${fix}`;
}

/**
 * Where kafkajs's lines go in this command: plain stderr lines, without the stack of every
 * refused connect (Nest's default logger printed them in colour, with stacks, for a broker away).
 */
export function plainKafkaSink(err: (line: string) => void): KafkaLogSink {
  const line = (m: string) => err(`kafkajs: ${m}`);
  return { error: line, warn: line, log: () => undefined, debug: () => undefined };
}

export interface DeadLetterOps {
  read(): Promise<StoredDeadLetter[]>;
  replay(letters: StoredDeadLetter[]): Promise<ReplayOutcome>;
  /** The contract's verdict on a message now: undefined when it is valid. */
  check(letter: StoredDeadLetter): string | undefined;
}

/** Free text from the topic (reasons may quote a consumer's error) shown on one line, without personal data. */
const shown = (text: string, max = 160) => {
  const line = scrubText(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const endToEndIdOf = (letter: StoredDeadLetter) => {
  try {
    const id = (JSON.parse(letter.value?.toString('utf8') ?? '') as { endToEndId?: unknown })?.endToEndId;
    return typeof id === 'string' && /^[A-Za-z0-9]{1,40}$/.test(id) ? id : '-';
  } catch {
    return '-';
  }
};

export async function runDeadLetters(argv: string[], ops: DeadLetterOps, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'list' && rest.length === 0) {
    const letters = await ops.read();
    out(`${letters.length} dead letter(s)`);
    for (const l of letters) {
      // A letter too large to store whole has no bytes here to judge: say so, and where they are.
      const verdict = l.omitted ? `not stored whole here: ${l.omitted}` : ops.check(l);
      out(`${l.id}  source ${shown(l.source || '-')}  consumer ${shown(l.consumer || '-')}  endToEndId ${endToEndIdOf(l)}  ${verdict === undefined ? 'valid now' : `invalid now (${shown(verdict)})`}  reason: ${shown(l.reason || '-')}`);
    }
    return EXIT.ok;
  }
  const all = rest.length === 1 && rest[0] === '--all';
  if (command === 'replay' && (all || (rest.length > 0 && rest.every((id) => /^\d+\/\d+$/.test(id))))) {
    const letters = await ops.read();
    const byId = new Map(letters.map((l) => [l.id, l]));
    const missing = all ? [] : rest.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      err(`no dead letter ${missing.join(', ')} (see \`list\`); nothing replayed`);
      return EXIT.refused;
    }
    const chosen = all ? letters : [...new Set(rest)].map((id) => byId.get(id)!);
    const outcome = await ops.replay(chosen);
    for (const l of outcome.replayed) out(`replayed ${l.id} (source ${shown(l.source || '-')}, endToEndId ${endToEndIdOf(l)})`);
    for (const l of outcome.copies) out(`skipped ${l.id}: a copy of a source replayed above (consumer ${shown(l.consumer || '-')})`);
    for (const { letter, error } of outcome.invalid) out(`skipped ${letter.id}: the contract still refuses it (${shown(error)})`);
    out(`${outcome.replayed.length} replayed, ${outcome.copies.length} skipped as copies, ${outcome.invalid.length} still invalid`);
    return EXIT.ok;
  }
  err(USAGE);
  return EXIT.usage;
}
