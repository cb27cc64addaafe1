import type { FastifyRequest } from 'fastify';
import { CorrelatedLogger } from './correlated-logger';
import { inRequestContext, withCorrelationId } from './request-context';

describe('CorrelatedLogger', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    const capture = (chunk: unknown) => (written.push(String(chunk)), true);
    jest.spyOn(process.stdout, 'write').mockImplementation(capture as never);
    jest.spyOn(process.stderr, 'write').mockImplementation(capture as never);
  });
  afterEach(() => jest.restoreAllMocks());

  const request = (cid: string) => ({ headers: { 'x-correlation-id': cid } }) as unknown as FastifyRequest;
  const logger = () => new CorrelatedLogger('Test', { colors: false });

  it('prefixes lines written inside a request with [cid=<id>], after the context', () => {
    inRequestContext(request('req-42'), () => {
      logger().log('hello');
      logger().warn('careful');
    });
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/ LOG \[Test\] \[cid=req-42\] hello\n$/);
    expect(written[1]).toMatch(/WARN \[Test\] \[cid=req-42\] careful\n$/);
  });

  it('names the id for the synchronous call only: after an await, code names it again (ADR 17)', async () => {
    await inRequestContext(request('req-43'), async () => {
      logger().log('before');
      await new Promise((r) => setTimeout(r, 1));
      logger().log('after, unnamed');
      withCorrelationId('req-43', () => logger().log('after, named'));
    });
    logger().log('outside');
    expect(written.map((w) => /\[cid=([^\]]+)\] (.+)\n$/.exec(w)?.slice(1) ?? w.trim().split('] ').pop())).toEqual([['req-43', 'before'], 'after, unnamed', ['req-43', 'after, named'], 'outside']);
  });

  it('writes nothing extra outside a request', () => {
    logger().log('start-up');
    expect(written[0]).toMatch(/ LOG \[Test\] start-up\n$/);
    expect(written[0]).not.toContain('cid=');
  });

  it('restores the outer id after a nested call, also when it throws', () => {
    withCorrelationId('outer', () => {
      withCorrelationId('inner', () => logger().log('one'));
      expect(() => withCorrelationId('thrown', () => { throw new Error('x'); })).toThrow('x');
      logger().log('two');
    });
    logger().log('three');
    expect(written.map((w) => /\[cid=([^\]]+)\]/.exec(w)?.[1])).toEqual(['inner', 'outer', undefined]);
  });

  it('marks an error stack with the correlation id too', () => {
    inRequestContext(request('req-err'), () => logger().error('boom', 'Error: boom\n    at here (x.ts:1:1)'));
    expect(written.join('')).toMatch(/ERROR \[Test\] \[cid=req-err\] boom\n/);
    expect(written.join('')).toContain('[cid=req-err] Error: boom');
  });
});
