import { localHostAllowed, localTargetAllowed } from './local-hosts';

const config = { host: 'localhost', locationHost: 'pix.dev.test:8080' };

describe('local mode: which Host names are this machine', () => {
  it.each(['localhost', 'LOCALHOST:8080', 'app.localhost', '127.0.0.1', '127.0.0.1:8080', '[::1]:8080', '192.168.0.10:8080', 'pix.dev.test', 'pix.dev.test:9999', undefined])('serves %s', (host) => {
    expect(localHostAllowed(host, config)).toBe(true);
  });

  it.each(['attacker.example', 'attacker.example:8080', 'localhost.attacker.example', 'pix.dev.test.attacker.example', '127.0.0.1.nip.io'])('refuses %s (a name someone else controls)', (host) => {
    expect(localHostAllowed(host, config)).toBe(false);
  });

  it('serves the name local mode is bound to when it is not localhost', () => {
    expect(localHostAllowed('sandbox.lan:8080', { ...config, host: 'sandbox.lan' })).toBe(true);
  });

  it('refuses an empty Host, and an absolute-form target naming another machine whatever Host says (found by a black-box fuzz)', () => {
    expect(localHostAllowed('', config)).toBe(false);
    expect(localTargetAllowed('http://evil.example/sandbox/session', '127.0.0.1:8080', config)).toBe(false);
    expect(localTargetAllowed('HTTP://user@evil.example:80/x', 'localhost', config)).toBe(false);
    expect(localTargetAllowed('http://127.0.0.1:8080/sandbox/session', 'localhost', config)).toBe(true);
    expect(localTargetAllowed('/sandbox/session', 'localhost:8080', config)).toBe(true);
    expect(localTargetAllowed('/sandbox/session', 'evil.example', config)).toBe(false);
  });
});
