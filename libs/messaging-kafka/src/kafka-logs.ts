import { Logger } from '@nestjs/common';
import { logLevel, type LogEntry, type logCreator } from 'kafkajs';

/** Where kafkajs's lines go: the app's logger (Nest's Logger, which writes the project's schema). */
export interface KafkaLogSink {
  error(message: string, stack?: string): void;
  warn(message: string): void;
  log(message: string): void;
  debug(message: string): void;
}

/** The same line at most once per this many ms; the repeats are counted on the next one. */
export const KAFKA_LOG_REPEAT_MS = 60_000;
/** Fields of a kafkajs entry worth a reader's time (others are retry counters, sizes, ids of requests). */
const DETAILS = ['broker', 'clientId', 'groupId', 'topic', 'error'] as const;
const MAX_KEYS = 1000;

/**
 * kafkajs's logs through the app's logger (a kafkajs `logCreator`): kafkajs's own JSON (`level`
 * in capitals, `timestamp`, `message`) broke the project's schema, and a broker that is away
 * made it write two lines per retry per client (72 of 151 lines). Here each line is the app's,
 * with context `kafkajs` and the app's scrubbing; a line repeated within KAFKA_LOG_REPEAT_MS is
 * counted and the count told with its next appearance; after `close` (the app's Kafka clients
 * are stopped) lines of clients still retrying in the background are dropped.
 */
export class KafkaLogs {
  private closed = false;
  private readonly repeated: RepeatedLines;

  constructor(
    private readonly sink: KafkaLogSink = nestSink(),
    repeatMs = KAFKA_LOG_REPEAT_MS,
    now: () => number = Date.now,
  ) {
    this.repeated = new RepeatedLines(repeatMs, now);
  }

  readonly logCreator: logCreator = () => (entry) => this.write(entry);

  /** From now on, nothing kafkajs says is logged (called once the app has stopped its clients). */
  close(): void {
    this.closed = true;
  }

  private write({ namespace, level: given, log }: LogEntry): void {
    if (this.closed) return;
    const { message, stack } = log as { message: string; stack?: string };
    // kafkajs logs every failed response as an error, then retries it (a group coordinator still
    // loading, a topic just created: a new broker's first start printed four) or throws to its
    // caller, whose own line says what failed for good. An operator paged at error needs only those.
    const level = given === logLevel.ERROR && String(message).startsWith('Response ') ? logLevel.WARN : given;
    const details = DETAILS.filter((d) => log[d] !== undefined && !String(message).includes(String(log[d]))).map((d) => `${d} ${String(log[d])}`);
    const text = `${namespace ? `[${namespace}] ` : ''}${message}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
    const line = this.repeated.admit(`${level} ${text}`, text);
    if (line === undefined) return;
    if (level === logLevel.ERROR) this.sink.error(line, stack);
    else if (level === logLevel.WARN) this.sink.warn(line);
    else if (level === logLevel.INFO) this.sink.log(line);
    else this.sink.debug(line);
  }
}

/**
 * The same line at most once per `repeatMs`: a repeat within it is counted, and the count told
 * with the line's next appearance. kafkajs's lines (KafkaLogs) and the consumers' own lines about
 * a group that keeps failing (KafkaBatchServer) go through it.
 */
export class RepeatedLines {
  private readonly seen = new Map<string, { at: number; repeats: number }>();

  constructor(
    private readonly repeatMs = KAFKA_LOG_REPEAT_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** `text` to write now (with the repeats since the last one written), or undefined for a repeat of `key`. */
  admit(key: string, text: string): string | undefined {
    const now = this.now();
    const last = this.seen.get(key);
    if (last && now - last.at < this.repeatMs) {
      last.repeats++;
      return undefined;
    }
    if (this.seen.size >= MAX_KEYS) this.seen.clear(); // bounded, whatever kafkajs puts in its messages
    this.seen.set(key, { at: now, repeats: 0 });
    return last && last.repeats > 0 ? `${text} (${last.repeats} more like it in the last ${Math.round((now - last.at) / 1000)} s)` : text;
  }
}

/** Nest's Logger with context `kafkajs`: whatever logger the app installed writes it. */
function nestSink(): KafkaLogSink {
  const logger = new Logger('kafkajs');
  return {
    error: (m, stack) => (stack ? logger.error(m, stack) : logger.error(m)),
    warn: (m) => logger.warn(m),
    log: (m) => logger.log(m),
    debug: (m) => logger.debug(m),
  };
}

/** For clients made without one: no `close`, so they log for as long as they live. */
export const defaultKafkaLogs = new KafkaLogs();
