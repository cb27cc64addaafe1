import { loadNotifierConfig } from './config';

/** As the API's (apps/api/src/config/eventstore-connection-string.spec.ts): the notifier reads webhook streams from EventStoreDB too. */
describe('notifier: EVENTSTORE_CONNECTION_STRING is checked as the EventStoreDB client will read it', () => {
  const load = (cs: string) => () => loadNotifierConfig({ KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix', EVENTSTORE_CONNECTION_STRING: cs });

  it.each(['kurrentdb://db:2113?tls=false', 'esdb://db:2113?tls=maybe'])('refuses %s at start-up, by name', (cs) => {
    expect(load(cs)).toThrow(/EVENTSTORE_CONNECTION_STRING/);
  });

  it('names the fault without echoing credentials, and takes a good string', () => {
    expect(load('esdb://admin:s3cret@db:2113?tls=maybe')).toThrow(/^(?![\s\S]*s3cret)/);
    expect(load('esdb://db:2113?tls=false')().eventStoreConnectionString).toBe('esdb://db:2113?tls=false');
  });
});
