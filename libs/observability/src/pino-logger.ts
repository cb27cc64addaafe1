import type { LoggerService, LogLevel } from '@nestjs/common';
import pino, { type Logger as Pino } from 'pino';
import { coalescedStdout } from './coalesced-output';
import { currentCorrelationId } from './request-context';
import { redactFields, scrubText } from './scrub';

export interface AppLoggerOptions {
  /** `json`: one object per line (time, level, msg, context, correlationId, …); `pretty`: for people. */
  format: 'json' | 'pretty';
  level: 'debug' | 'info' | 'warn' | 'error';
  /** Added to every line (e.g. `service`). */
  base?: Record<string, string>;
  /** Where lines go; standard output unless told (tests capture here). */
  destination?: NodeJS.WritableStream;
  /** Contexts whose lines are dropped (e.g. Nest's `RoutesResolver`, whose prefixes are wrong for routes outside the global prefix). */
  omitContexts?: string[];
}

const NEST_LEVELS: Record<LogLevel, pino.Level> = { log: 'info', error: 'error', warn: 'warn', debug: 'debug', verbose: 'trace', fatal: 'fatal' };
const looksLikeStack = (s: unknown) => typeof s === 'string' && /\n\s+at /.test(s);

/**
 * Nest's LoggerService on pino: every line a JSON object with `time` (ISO 8601), `level`
 * (a name), `msg`, `context`, and `correlationId` while a request is served. A message given as
 * an object (access lines) adds its fields. Secrets and personal data are removed twice: by field
 * name (redactFields) and from free text (scrubText), stacks included.
 */
export class AppLogger implements LoggerService {
  readonly pino: Pino;
  private readonly pretty: boolean;
  private readonly omitted: ReadonlySet<string>;

  constructor(options: AppLoggerOptions) {
    // Standard output is written once per event-loop turn (see coalescedOutput); a given destination (tests) line by line.
    const out = options.destination ?? coalescedStdout();
    // Pretty lines are formatted in the calling tick (prettyFactory, no transform stream), so a line
    // written just before exit is not lost.
    const prettify =
      options.format === 'pretty'
        ? // Loaded only for people (local mode): JSON deployments never carry it (issue 11's memory budget).
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous on purpose: loaded on first use
          (require('pino-pretty') as typeof import('pino-pretty')).prettyFactory({
            colorize: options.destination === undefined && Boolean(process.stdout.isTTY),
            translateTime: 'SYS:HH:MM:ss.l',
            // Access-line fields are already in the sentence; a stack still prints below its line.
            ignore: 'pid,hostname,service,context,correlationId,method,route,status,durationMs,clientId,receiverId',
            messageFormat: '{if context}[{context}] {end}{if correlationId}[cid={correlationId}] {end}{msg}',
          })
        : undefined;
    const stream = prettify ? { write: (line: string) => out.write(prettify(line)) } : out;
    this.pretty = prettify !== undefined;
    this.omitted = new Set(options.omitContexts);
    this.pino = pino(
      {
        level: options.level,
        base: { ...options.base },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        messageKey: 'msg',
      },
      stream,
    );
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }
  /** Nest calls error(message, stack?, context?); a lone second argument is a stack only if it looks like one. */
  error(message: unknown, ...rest: unknown[]): void {
    const stack = rest.length >= 2 || looksLikeStack(rest[0]) ? rest.shift() : undefined;
    this.write('error', message, rest, typeof stack === 'string' ? stack : undefined);
  }

  /** Whether a line at this level would be written (callers skip building lines nobody keeps). */
  isLevelEnabled(level: LogLevel): boolean {
    return this.pino.isLevelEnabled(NEST_LEVELS[level]);
  }

  setLogLevels(levels: LogLevel[]): void {
    const order: pino.Level[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
    const wanted = levels.map((l) => NEST_LEVELS[l]);
    this.pino.level = order.find((l) => wanted.includes(l)) ?? 'info';
  }

  private write(level: pino.Level, message: unknown, rest: unknown[], stack?: string): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (context && this.omitted.has(context)) return;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    const correlationId = currentCorrelationId();
    if (correlationId) fields.correlationId = correlationId;
    let msg: string;
    if (message instanceof Error) {
      msg = message.message;
      stack ??= message.stack;
    } else if (message !== null && typeof message === 'object') {
      const { msg: text, ...extra } = message as Record<string, unknown>;
      Object.assign(fields, extra);
      msg = typeof text === 'string' ? text : '';
    } else msg = String(message);
    if (stack) fields.stack = scrubText(stack);
    // JSON escapes control characters itself; readable lines print them, so a client id with a
    // newline could forge a line (or a terminal escape repaint one): shown escaped instead.
    const text = scrubText(msg);
    this.pino[level](redactFields(fields), this.pretty ? escapeControls(text) : text);
  }
}

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const escapeControls = (text: string) => text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
