import { StartupError, startupFailureLine } from './startup-failure';

describe('startupFailureLine', () => {
  it('gives a StartupError its message, on one line', () => {
    expect(startupFailureLine(new StartupError('cannot use /x\n  because'))).toBe('cannot use /x; because');
  });

  it('recognises the surroundings refusing: a port taken, a server down (also inside AggregateError and causes), a database refusing', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(startupFailureLine(Object.assign(new Error('listen EADDRINUSE: address already in use :::8080'), { code: 'EADDRINUSE' }))).toBe(
      'start-up failed: listen EADDRINUSE: address already in use :::8080',
    );
    expect(startupFailureLine(Object.assign(new AggregateError([refused, refused], ''), { code: 'ECONNREFUSED' }))).toContain('ECONNREFUSED 127.0.0.1:5432');
    expect(startupFailureLine(new Error('Number of retries exceeded', { cause: refused }))).toContain('ECONNREFUSED');
    expect(startupFailureLine(Object.assign(new Error('password authentication failed for user "x"'), { code: '28P01' }))).toContain('password authentication failed');
  });

  it('leaves bugs alone, so they keep their stack', () => {
    expect(startupFailureLine(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeUndefined();
    expect(startupFailureLine(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).toBeUndefined();
    expect(startupFailureLine('a string')).toBeUndefined();
  });
});
