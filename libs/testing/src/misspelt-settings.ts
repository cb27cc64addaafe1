import { readFileSync } from 'node:fs';
import path from 'node:path';
import { misspeltSettings, recordingReads } from '@pix/observability';

type Env = Record<string, string | undefined>;

/** Every upper-case name the README writes as code: the settings of both apps, and a few others. */
export function documentedNames(): string[] {
  const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
  return [...new Set(readme.match(/(?<=`)[A-Z][A-Z0-9]*(_[A-Z0-9]+)+(?=`)|(?<=`)(PORT|HOST|MODE)(?=`)/g))];
}

/** What a start-up with `load` would warn of for `env` ("NAME→SETTING"), whether or not the values pass. */
export function misspeltUnder(load: (env: Env) => unknown, env: Env): string[] {
  const recorded = recordingReads(env);
  try {
    load(recorded.env);
  } catch {
    // Refused values are the loader's own messages; what it read is what counts here.
  }
  return misspeltSettings(env, recorded.read).map((m) => `${m.name}→${m.meant}`);
}
