import { misspeltSettingLine, misspeltSettings, recordingReads } from './misspelt-settings';

/** A loader that reads what a real one would, through the recording env. */
function load(env: Record<string, string | undefined>, read: (env: Record<string, string | undefined>) => void) {
  const recorded = recordingReads(env);
  read(recorded.env);
  return misspeltSettings(env, recorded.read);
}

const loader = (env: Record<string, string | undefined>) => {
  void env.WEBHOOK_POLL;
  void env.KAFKA_BROKERS;
  void ('LOG_LEVEL' in env);
  void env.PORT;
  void env.HOST;
};

describe('misspelt settings', () => {
  it('names a setting with a unit tacked on, and the setting it looks like', () => {
    const found = load({ WEBHOOK_POLL_MS: '50' }, loader);
    expect(found).toEqual([{ name: 'WEBHOOK_POLL_MS', meant: 'WEBHOOK_POLL', suffixed: true }]);
    expect(misspeltSettingLine(found[0])).toBe('setting WEBHOOK_POLL_MS is not read and has no effect: did you mean WEBHOOK_POLL? (a unit goes in the value: 500ms, 2s)');
  });

  it('names settings one or two letters off what the loader read', () => {
    expect(load({ KAFKA_BROKER: 'k:9092', LOGLEVEL: 'debug' }, loader).map((m) => `${m.name}→${m.meant}`)).toEqual(['KAFKA_BROKER→KAFKA_BROKERS', 'LOGLEVEL→LOG_LEVEL']);
  });

  it('leaves alone what was read, the machine’s own variables and names like no setting', () => {
    const env = { WEBHOOK_POLL: '1s', PORT: '1', HOSTNAME: 'box', HOME: '/root', PATH: '/bin', NODE_OPTIONS: '', npm_config_cache: 'x', NOTIFIER_GROUP_ID: 'other-app', SOMETHING_ELSE: '1' };
    expect(load(env, loader)).toEqual([]);
  });
});
