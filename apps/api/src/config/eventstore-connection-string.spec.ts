import { ConfigError, loadAdminConfig, loadConfig } from './config';

/** The notifier's check: apps/notifier/src/eventstore-connection-string.spec.ts. The pinned @eventstore/db-client (6.x) parses only esdb:// and esdb+discover://, and checks each option's value. */
describe('EVENTSTORE_CONNECTION_STRING is checked as the EventStoreDB client will read it', () => {
  const problems = (load: () => unknown): string => {
    try {
      load();
      return '';
    } catch (e) {
      return e instanceof ConfigError ? e.problems.join('\n') : String((e as Error).message);
    }
  };
  const loaders = (cs: string) => [
    () => loadConfig({ EVENTSTORE_CONNECTION_STRING: cs }),
    () => loadAdminConfig({ EVENTSTORE_CONNECTION_STRING: cs }),
  ];

  it.each(['kurrentdb://db:2113?tls=false', 'kurrent://db:2113', 'esdb://db:2113?tls=maybe', 'esdb://db:port'])('refuses %s at start-up, by name', (cs) => {
    for (const load of loaders(cs)) expect(problems(load)).toMatch(/EVENTSTORE_CONNECTION_STRING/);
  });

  it('names the fault without echoing credentials', () => {
    for (const load of loaders('esdb://admin:s3cret@db:2113?tls=maybe')) expect(problems(load)).not.toContain('s3cret');
  });

  it.each(['esdb://db:2113?tls=false', 'esdb+discover://cluster.example:2113', 'esdb://admin:changeit@a:2113,b:2113,c:2113?nodePreference=leader'])('takes %s', (cs) => {
    for (const load of loaders(cs)) expect(problems(load)).not.toMatch(/EVENTSTORE_CONNECTION_STRING/);
  });
});
