import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppLogger } from './pino-logger';
import { inRequestContext } from './request-context';
import { scrubText } from './scrub';

function capture(format: 'json' | 'pretty' = 'json') {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (d) => lines.push(...String(d).split('\n').filter(Boolean)));
  return { logger: new AppLogger({ format, level: 'debug', base: { service: 'test' }, destination: out }), lines };
}

describe('AppLogger', () => {
  it('writes one JSON object per line with time, level, msg, context and the correlation id', async () => {
    const { logger, lines } = capture();
    inRequestContext({ headers: { 'x-correlation-id': 'cid-7' } } as unknown as FastifyRequest, () => logger.log({ msg: 'GET /x 200 1.0ms', route: '/x', durationMs: 1 }, 'Access'));
    logger.warn('outside', 'Main');
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({ level: 'info', msg: 'GET /x 200 1.0ms', context: 'Access', correlationId: 'cid-7', route: '/x', durationMs: 1, service: 'test' });
    expect(new Date(first.time).toISOString()).toBe(first.time);
    expect(second).toMatchObject({ level: 'warn', msg: 'outside', context: 'Main' });
    expect(second.correlationId).toBeUndefined();
  });

  it('takes secrets, tokens, CPF/CNPJ and names out of messages, stacks and fields', () => {
    const { logger, lines } = capture();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    logger.error(`auth Bearer abc.def-ghi failed for client_secret=s3cr3t-value, cpf 529.982.247-25 / 52998224725, cnpj 11.222.333/0001-81 and 11222333000181 and 12ABC34501DE35 token ${jwt}`, `Error: x\n    at password="hunter2hunter2"`, 'HTTP');
    logger.log({ msg: 'body', devedor: { cpf: '52998224725', nome: 'Fulano Secreto' }, headers: { authorization: 'Basic Zm9vOmJhcg==' } }, 'X');
    const all = lines.join('\n');
    for (const secret of ['abc.def-ghi', 's3cr3t-value', '529.982.247-25', '52998224725', '11.222.333/0001-81', '11222333000181', '12ABC34501DE35', jwt, 'hunter2hunter2', 'Fulano Secreto', 'Zm9vOmJhcg==']) expect(all).not.toContain(secret);
    expect(JSON.parse(lines[0]).msg).toContain('[cpf]');
  });

  it('takes query strings and userinfo out of URLs in free text', () => {
    expect(scrubText('webhook x attempt 1 to https://127.0.0.1:18490/status500?tok=QSECRETQ/pix: HTTP 500')).toBe('webhook x attempt 1 to https://127.0.0.1:18490/status500?…: HTTP 500');
    expect(scrubText('to https://u:pw@hooks.example.com/a and http://h/b?x=1&y=2 done')).toBe('to https://hooks.example.com/a and http://h/b?… done');
  });
  it('keeps ordinary numbers, txids and route lines intact', () => {
    expect(scrubText('PUT /v2/cobv/omwslozcwst5kbpl1dae0000000000 201 34.2ms client=e2e-client')).toBe('PUT /v2/cobv/omwslozcwst5kbpl1dae0000000000 201 34.2ms client=e2e-client');
    expect(scrubText('POST /oauth/token 200 3.0ms')).toBe('POST /oauth/token 200 3.0ms');
  });

  it('prints control characters of a message escaped in pretty mode: no forged line, no terminal escapes', () => {
    const { logger, lines } = capture('pretty');
    logger.warn('token refused for client "x"\n[18:46:00.000] INFO: [Access] forged line\u001b[2J"', 'Access');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('client "x"\\u000a[18:46:00.000] INFO: [Access] forged line\\u001b[2J"');
  });

  it('prints readable lines in pretty mode', () => {
    const { logger, lines } = capture('pretty');
    logger.log('hello', 'Main');
    expect(lines[0]).toMatch(/INFO.*\[Main\] hello$/);
  });
});

describe('redactFields', () => {
  it('censors listed names at the first four levels, in objects and arrays, and leaves clean lines as they are', async () => {
    const { redactFields } = await import('./scrub');
    const clean = { method: 'PUT', route: '/v2/cobv/:txid', status: 201, durationMs: 1.2 };
    expect(redactFields(clean)).toBe(clean);
    expect(
      redactFields({ token: 't', req: { headers: { authorization: 'Bearer x', cookie: 'c', accept: 'json' } }, list: [{ cpf: '1', ok: 2 }], deep: { a: { b: { nome: 'n' } } } }),
    ).toEqual({ token: '[redacted]', req: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'json' } }, list: [{ cpf: '[redacted]', ok: 2 }], deep: { a: { b: { nome: '[redacted]' } } } });
  });
});
