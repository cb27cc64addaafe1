import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import { HttpSender } from './http-sender';
import { createSafeLookup, unsafeTargetReason, type LookupAll } from './safe-target';
import { TestReceiver } from './testing/test-receiver';

// Real sockets on 127.0.0.1 (in-process servers only). Names are resolved by injected resolvers:
// there is no DNS here, and it lets a name "change" between registration and delivery.

const answers = (address: string): LookupAll => (_host, _options, callback) => setImmediate(() => callback(null, [{ address, family: 4 }]));
/** A connect-time lookup with no safety check: the control that proves the name reaches the receiver. */
const unchecked = (address: string): net.LookupFunction => (_host, options, callback) =>
  (options as dns.LookupOptions).all ? (callback as any)(null, [{ address, family: 4 }]) : (callback as any)(null, address, 4);

describe('HttpSender', () => {
  const receivers: TestReceiver[] = [];
  const senders: HttpSender[] = [];
  const receiver = async (options?: Parameters<typeof TestReceiver.start>[0]) => {
    const r = await TestReceiver.start(options);
    receivers.push(r);
    return r;
  };
  const sender = (allowPrivate: boolean, lookup?: net.LookupFunction) => {
    const s = new HttpSender(2000, undefined, allowPrivate, lookup);
    senders.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of senders) s.close();
    for (const r of receivers) await r.close();
  });

  it('takes the status of an answer whose body is endless without reading it to the end (it held the one thread for every key)', async () => {
    // A receiver that answers 200 and then streams zeros for as long as the connection stays open.
    const endless = http.createServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(65536);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/hook/pix`;
      const started = Date.now();
      const result = await sender(true).send(url, '{"pix":[]}', {});
      expect(result).toMatchObject({ statusCode: 200, error: null });
      // The sender's timeout is 2 s: the answer was not read until it.
      expect(Date.now() - started).toBeLessThan(1000);
      // The connection was dropped, not kept for the next POST: that one gets a fresh one.
      expect(await sender(true).send(url, '{"pix":[]}', {})).toMatchObject({ statusCode: 200, error: null });
    } finally {
      endless.closeAllConnections();
      await new Promise((r) => endless.close(r));
    }
  });

  it('never follows a redirect: a 302 is a failed attempt and its Location is not fetched', async () => {
    const elsewhere = await receiver();
    const redirecting = await receiver({ responder: () => ({ status: 302, headers: { location: `${elsewhere.baseUrl}/elsewhere` } }) });
    const result = await sender(true).send(`${redirecting.baseUrl}/hook/pix`, '{"pix":[]}', { 'content-type': 'application/json' });
    expect(result.statusCode).toBe(302);
    expect(result.error).toBe(`HTTP 302: redirect not followed (Location: ${elsewhere.baseUrl}/elsewhere)`);
    expect(redirecting.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /hook/pix']);
    await new Promise((r) => setTimeout(r, 100));
    expect(elsewhere.requests).toEqual([]);
  });

  it("notes a redirect's Location as the logs show a URL: no query or userinfo (the error is stored and shown)", async () => {
    const redirecting = await receiver({ responder: (req) => ({ status: 307, headers: { location: req.url === '/rel' ? '/next?tok=QSECRETQ' : 'https://u:QPWQ@other.example:8443/x?tok=QSECRETQ' } }) });
    const absolute = await sender(true).send(`${redirecting.baseUrl}/abs`, '{}', {});
    expect(absolute.error).toBe('HTTP 307: redirect not followed (Location: https://other.example:8443/x?…)');
    const relative = await sender(true).send(`${redirecting.baseUrl}/rel`, '{}', {});
    expect(relative.error).toBe(`HTTP 307: redirect not followed (Location: ${redirecting.baseUrl}/next?…)`);
  });

  it('a name that was public at registration and resolves to 127.0.0.1 at delivery reaches nothing', async () => {
    const inside = await receiver();
    const url = `http://rebind.example:${inside.port}/hook/pix`;
    // Control: resolved without the check, the name does lead to the receiver.
    const control = await sender(false, unchecked('127.0.0.1')).send(url, '{}', {});
    expect(control.statusCode).toBe(200);
    expect(inside.requests).toHaveLength(1);

    expect(await unsafeTargetReason(url.replace('http:', 'https:'), (async () => [{ address: '200.160.2.3', family: 4 }]) as any)).toBeUndefined();
    const result = await sender(false, createSafeLookup(answers('127.0.0.1'))).send(url, '{}', {});
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/EPRIVATETARGET: .*private address \(127\.0\.0\.1\)/);
    expect(inside.requests).toHaveLength(1);
  });

  it('refuses private address literals before connecting, in any spelling', async () => {
    const inside = await receiver();
    for (const host of ['127.0.0.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]']) {
      const result = await sender(false).send(`http://${host}:${inside.port}/hook`, '{}', {});
      expect({ host, status: result.statusCode, error: result.error }).toEqual({ host, status: null, error: expect.stringMatching(/private, loopback or reserved/) });
    }
    expect(inside.requests).toEqual([]);
  });
});
