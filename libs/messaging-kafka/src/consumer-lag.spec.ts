import type { Kafka } from 'kafkajs';
import { ConsumerLagPoller } from './consumer-lag';

// kafkajs's admin, answering as a broker would or failing as one that stopped does.
function brokerThat(state: { up: boolean }) {
  const admin = {
    connect: async () => {
      if (!state.up) throw new Error('Connection error: connect ECONNREFUSED');
    },
    disconnect: async () => undefined,
    fetchTopicOffsets: async () => {
      if (!state.up) throw new Error('Connection error: connect ECONNREFUSED');
      return [{ partition: 0, offset: '10', high: '10', low: '0' }];
    },
    fetchOffsets: async () => [{ topic: 'pix.recebido', partitions: [{ partition: 0, offset: '7', metadata: null }] }],
  };
  return { admin: () => admin } as unknown as Kafka;
}

describe('consumer lag (ConsumerLagPoller)', () => {
  it('serves nothing, not the last values, once a poll fails (the broker down showed lag 0 for minutes)', async () => {
    const state = { up: true };
    const poller = new ConsumerLagPoller(brokerThat(state), ['g'], 15_000, 'pix.recebido');
    await poller.poll();
    expect(poller.lags()).toEqual([{ group: 'g', topic: 'pix.recebido', partition: 0, lag: 3 }]);
    state.up = false;
    await poller.poll();
    expect(poller.lags()).toEqual([]);
    state.up = true;
    await poller.poll();
    expect(poller.lags()).toHaveLength(1);
  });

  it('serves nothing once two polls have passed without an answer (a poll against a stopped broker retries for a minute)', async () => {
    let now = 0;
    const poller = new ConsumerLagPoller(brokerThat({ up: true }), ['g'], 15_000, 'pix.recebido', () => now);
    await poller.poll();
    now = 30_000;
    expect(poller.lags()).toHaveLength(1);
    now = 30_001;
    expect(poller.lags()).toEqual([]);
  });
});
