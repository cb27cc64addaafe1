import { beginDraining } from '@pix/http-edge';
import type { AppConfig } from '../config/config';
import { HealthController } from './health.controller';
import { Readiness, reportKafka } from './readiness';

// Readiness with an asynchronous read model (as on EventStoreDB): 503 once it lags past the bound.
describe('readiness and projection lag', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const server = {};
  const reply = (on = server) => {
    const r = { server: { server: on }, code: 200, headers: {} as Record<string, string>, status: (c: number) => ((r.code = c), r), header: (k: string, v: string) => ((r.headers[k] = v), r) };
    return r;
  };
  const controller = (recordedAt: Date | undefined, bound = 30, readiness = new Readiness()) => {
    const store = { name: 'eventstoredb', readAll: async ({ after }: { after?: string }) => (recordedAt && after === 'p1' ? [{ recordedAt, position: 'p2' }] : []) };
    const projections = { checkpoints: () => ({ cobv: 'p1', pix: 'inline' }) };
    const db = { query: async () => ({ rows: [{ n: 0 }] }) };
    return new HealthController(db as never, store as never, projections as never, readiness, { readyMaxProjectionLagSeconds: bound } as AppConfig, { now: () => now });
  };

  it('is ready while the asynchronous read model is caught up or within the bound', async () => {
    for (const recordedAt of [undefined, new Date(now.getTime() - 10_000)]) {
      const r = reply();
      const body: any = await controller(recordedAt).ready(r as never);
      expect([r.code, body.status, body.projectionLag]).toEqual([200, 'ok', 'up']);
    }
  });

  it('answers 503 with Retry-After once it lags past the bound, and never checks when the bound is 0', async () => {
    const r = reply();
    const body: any = await controller(new Date(now.getTime() - 31_000)).ready(r as never);
    expect([r.code, r.headers['retry-after'], body.status, body.projectionLag]).toEqual([503, '2', 'unavailable', 'behind']);
    const off = reply();
    expect(((await controller(new Date(0), 0).ready(off as never)) as any).status).toBe('ok');
  });

  it('answers 503 saying it is shutting down once the shutdown delay has begun, whatever its dependencies', async () => {
    const stopping = {};
    beginDraining({ server: stopping } as never);
    const r = reply(stopping);
    expect([await controller(undefined).ready(r as never), r.code]).toEqual([{ status: 'shutting down' }, 503]);
    const other = reply();
    expect(((await controller(undefined).ready(other as never)) as any).status).toBe('ok');
  });

  it('stays 200 with status degraded while Kafka is away or a group is stuck joining: the database decides, only settlement waits for Kafka', async () => {
    const kafka = { cluster: undefined as string | undefined, group: 'joined' };
    const readiness = new Readiness();
    reportKafka(readiness, async () => kafka.cluster, [{ groupId: 'pix-api-settlement', reportedState: () => kafka.group }]);
    const probe = async () => {
      const r = reply();
      const body: any = await controller(undefined, 30, readiness).ready(r as never);
      return [r.code, body.status, body.database, body.kafka, body['kafka pix-api-settlement']];
    };
    expect(await probe()).toEqual([200, 'ok', 'up', 'up', 'joined']);
    kafka.cluster = 'connect ECONNREFUSED';
    kafka.group = 'joining';
    expect(await probe()).toEqual([200, 'degraded', 'up', 'unreachable', 'joining']);
    kafka.cluster = undefined;
    kafka.group = 'stuck joining';
    expect(await probe()).toEqual([200, 'degraded', 'up', 'up', 'stuck joining']);
    expect(await readiness.dependencyUp('kafka')).toBe(false);
    kafka.group = 'joined';
    expect(await readiness.dependencyUp('kafka')).toBe(true);
  });
});
