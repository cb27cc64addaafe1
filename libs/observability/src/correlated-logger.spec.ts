import type { FastifyRequest } from 'fastify';
import { CorrelatedLogger } from './correlated-logger';
import { inRequestContext } from './request-context';

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

  it('prefixes lines written inside a request with [cid=<id>], after the context', async () => {
    await inRequestContext(request('req-42'), async () => {
      await new Promise((r) => setTimeout(r, 1)); // survives async hops
      logger().log('hello');
      logger().warn('careful');
    });
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/ LOG \[Test\] \[cid=req-42\] hello\n$/);
    expect(written[1]).toMatch(/WARN \[Test\] \[cid=req-42\] careful\n$/);
  });

  it('writes nothing extra outside a request', () => {
    logger().log('start-up');
    expect(written[0]).toMatch(/ LOG \[Test\] start-up\n$/);
    expect(written[0]).not.toContain('cid=');
  });

  it('keeps concurrent requests apart', async () => {
    await Promise.all(
      ['a-1', 'b-2'].map((cid, i) =>
        inRequestContext(request(cid), async () => {
          await new Promise((r) => setTimeout(r, 5 - i * 4));
          logger().log(`from ${cid}`);
        }),
      ),
    );
    expect(written.map((w) => /\[cid=([^\]]+)\] from (\S+)/.exec(w)?.slice(1))).toEqual(expect.arrayContaining([['a-1', 'a-1'], ['b-2', 'b-2']]));
  });

  it('marks an error stack with the correlation id too', () => {
    inRequestContext(request('req-err'), () => logger().error('boom', 'Error: boom\n    at here (x.ts:1:1)'));
    expect(written.join('')).toMatch(/ERROR \[Test\] \[cid=req-err\] boom\n/);
    expect(written.join('')).toContain('[cid=req-err] Error: boom');
  });
});
