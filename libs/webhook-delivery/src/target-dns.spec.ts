import { createSocket, type Socket } from 'node:dgram';
import dnsModule from 'node:dns';
import { safeLookup, unsafeTargetReason } from './safe-target';
import { createTargetResolve } from './target-dns';

/**
 * A name server on 127.0.0.1: `silent` never answers (an attacker's server swallowing queries),
 * otherwise every A question gets `answer` and every AAAA question an empty answer.
 */
async function nameServer(behaviour: { silent: true } | { answer: [number, number, number, number] }): Promise<{ server: string; close(): void; questions: number }> {
  const socket: Socket = createSocket('udp4');
  const state = { questions: 0 };
  socket.on('message', (query, peer) => {
    state.questions++;
    if ('silent' in behaviour) return;
    const questionEnd = query.indexOf(0, 12) + 5; // QNAME's root label, then QTYPE and QCLASS
    const type = query.readUInt16BE(questionEnd - 4);
    const header = Buffer.from(query.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(type === 1 ? 1 : 0, 6); // answers
    header.writeUInt32BE(0, 8); // no authority or additional records
    const answer = type === 1 ? Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...behaviour.answer]) : Buffer.alloc(0);
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), answer]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${socket.address().port}`, close: () => socket.close(), get questions() { return state.questions; } };
}

describe('resolving webhook targets (c-ares, a deadline, nobody waits for another name)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('neither check goes through getaddrinfo (dns.lookup), whose two slots every lookup of the process shares', async () => {
    const gai = [jest.spyOn(dnsModule, 'lookup'), jest.spyOn(dnsModule.promises, 'lookup')];
    await unsafeTargetReason('https://nowhere.invalid/hook');
    await new Promise((done) => safeLookup('nowhere.invalid', { all: true }, done));
    for (const spy of gai) expect(spy).not.toHaveBeenCalled();
  }, 10_000);

  it('a name server that never answers costs at most the deadline, and 20 such names at once cost the same', async () => {
    const dns = await nameServer({ silent: true });
    try {
      const resolve = createTargetResolve({ servers: [dns.server], deadlineMs: 600 });
      const started = Date.now();
      expect(await resolve('slow.example.com')).toEqual([]);
      expect(Date.now() - started).toBeLessThan(1_500);
      // getaddrinfo ran two at a time per process: 20 hanging names took ten rounds of its time-out.
      const many = Date.now();
      const all = await Promise.all(Array.from({ length: 20 }, (_, i) => resolve(`slow${i}.example.com`)));
      expect(all.every((list) => list.length === 0)).toBe(true);
      expect(Date.now() - many).toBeLessThan(1_500);
      expect(dns.questions).toBeGreaterThanOrEqual(42);
    } finally {
      dns.close();
    }
  });

  it('answers what DNS says, and the registration check judges it', async () => {
    const dns = await nameServer({ answer: [127, 0, 0, 1] });
    const pub = await nameServer({ answer: [200, 160, 2, 3] });
    try {
      const evil = createTargetResolve({ servers: [dns.server] });
      expect(await evil('rebind.example.com')).toEqual([{ address: '127.0.0.1', family: 4 }]);
      const lookup = ((hostname: string) => evil(hostname)) as any;
      // Refused, without telling the tenant what the name resolved to (safe-target.ts).
      expect(await unsafeTargetReason('https://rebind.example.com/hook', lookup)).toBe('o host rebind.example.com resolve para um endereço privado, de loopback ou reservado');
      const good = ((hostname: string) => createTargetResolve({ servers: [pub.server] })(hostname)) as any;
      expect(await unsafeTargetReason('https://receiver.example.com/hook', good)).toBeUndefined();
    } finally {
      dns.close();
      pub.close();
    }
  });
});
