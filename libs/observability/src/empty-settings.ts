type Env = Record<string, string | undefined>;

/**
 * The environment with every setting set to the empty string read as unset (ADR 18): `VAR=` in a
 * compose file or a template whose value was missing means "not given", so the setting takes its
 * default, or is required by name where it has none. Loaders differed: LOG_FORMAT= was the default
 * and LOG_LEVEL= refused, SHUTDOWN_DELAY= the default and WEBHOOK_TIMEOUT= refused, and DATA_DIR=
 * put local mode's database in the working directory. Lazy (a proxy), so a recording environment
 * beneath it (recordingReads) still learns only the names a loader looks up. A value of spaces is
 * not empty: it is a value, refused where it is not one the setting takes.
 */
export function emptyAsUnset(env: Env): Env {
  return new Proxy(env, {
    get: (target, name) => {
      const value: unknown = Reflect.get(target, name);
      return value === '' ? undefined : value;
    },
    has: (target, name) => Reflect.has(target, name) && Reflect.get(target, name) !== '',
  });
}
