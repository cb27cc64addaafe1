// Finds a configuration loader's integer settings by what it does, so a test can walk every one,
// including a setting added later (the audit found PORT and others taking "0x10" and "1e3"
// through Number() while WEBHOOK_MAX_BATCH refused them).

import { recordingReads } from '@pix/observability';

type Env = Record<string, string | undefined>;
type Load = (env: Env) => unknown;

/** Values some integer setting accepts, whatever its range. */
const DECIMALS = ['12', '1000', '100000'];

/** Every variable `load` reads from `base`, through a recording environment. */
export function variablesRead(load: Load, base: Env): string[] {
  const { env, read } = recordingReads(base);
  load(env);
  return [...read].sort();
}

/** What `load` says of `env`: undefined when it accepts it, else its error's message. */
export function refusal(load: Load, env: Env): string | undefined {
  try {
    load(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** What `load` makes of `env`: its configuration, or its refusal (to compare two environments). */
export const outcome = (load: Load, env: Env): unknown => refusal(load, env) ?? load(env);

/** `env` without `name`: the setting unset. */
export const without = (env: Env, name: string): Env => Object.fromEntries(Object.entries(env).filter(([k]) => k !== name));

/**
 * The variables `load` reads from `base` that take a number: some plain decimal is accepted while
 * a word and a duration ("12s") are refused (which leaves out texts and durations, WEBHOOK_TIMEOUT).
 */
export function integerSettings(load: Load, base: Env): string[] {
  const accepts = (name: string, value: string) => refusal(load, { ...base, [name]: value }) === undefined;
  return variablesRead(load, base).filter((name) => DECIMALS.some((v) => accepts(name, v)) && !accepts(name, 'abc') && !accepts(name, '12s'));
}

/** Values every integer setting must refuse: hexadecimal, exponent, fraction, spaces, a sign. */
export const NOT_DECIMAL_INTEGERS = ['0x10', '1e3', '1.5', ' 12 ', '-1', '+12', '12abc', ' '];
