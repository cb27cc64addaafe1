type Env = Record<string, string | undefined>;

/**
 * The environment as a configuration loader sees it, with every name it looks up recorded: the
 * names it knows are the ones it reads, so no list of settings is kept beside the loader.
 */
export function recordingReads(env: Env): { env: Env; read: Set<string> } {
  const read = new Set<string>();
  const note = (name: string | symbol) => typeof name === 'string' && read.add(name);
  const proxy = new Proxy(env, {
    get: (target, name) => (note(name), Reflect.get(target, name)),
    has: (target, name) => (note(name), Reflect.has(target, name)),
    getOwnPropertyDescriptor: (target, name) => (note(name), Reflect.getOwnPropertyDescriptor(target, name)),
  });
  return { env: proxy, read };
}

export interface MisspeltSetting {
  name: string;
  meant: string;
  /** The name is the setting's with a suffix (a unit, most often). */
  suffixed: boolean;
}

const SETTING = /^[A-Z][A-Z0-9_]*$/;
/** A unit or plural tacked on: WEBHOOK_POLL_MS for WEBHOOK_POLL (durations take their unit in the value). */
const SUFFIX = /^_[A-Z]{1,7}$/;

/**
 * Variables set but never read that look like a setting the loader did read: one or two letters
 * off (KAFKA_BROKER, LOGLEVEL) or a suffix added (WEBHOOK_POLL_MS). Such a typo is otherwise
 * ignored without a word and the default applies (two of our own fault tests set WEBHOOK_POLL_MS).
 * Names that look like none are left alone: the machine's own, and the other app's settings in
 * an environment both apps share.
 */
export function misspeltSettings(env: Env, read: ReadonlySet<string>): MisspeltSetting[] {
  const known = [...read].filter((r) => SETTING.test(r));
  const found: MisspeltSetting[] = [];
  for (const name of Object.keys(env)) {
    if (read.has(name) || !SETTING.test(name) || name.length < 6) continue;
    const suffixed = known.find((k) => k.length >= 4 && name.startsWith(k) && SUFFIX.test(name.slice(k.length)));
    if (suffixed) found.push({ name, meant: suffixed, suffixed: true });
    else {
      const close = known.find((k) => k.length >= 6 && editDistance(name, k) <= 2);
      if (close) found.push({ name, meant: close, suffixed: false });
    }
  }
  return found;
}

/** The warning line for one. */
export const misspeltSettingLine = (m: MisspeltSetting) =>
  `setting ${m.name} is not read and has no effect: did you mean ${m.meant}?${m.suffixed ? ' (a unit goes in the value: 500ms, 2s)' : ''}`;

/** Levenshtein distance, stopping early: only "at most 2" matters. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...current) > 2) return 3;
    previous = current;
  }
  return previous[b.length];
}
