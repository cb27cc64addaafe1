import type dns from 'node:dns';
import { createSafeLookup, isPrivateAddress, isPrivateName, unsafeTargetReason, type LookupAll } from './safe-target';

/** A resolver for tests (there is no network here): every name answers `address`. */
const answering = (address: string) => (async () => [{ address, family: address.includes(':') ? 6 : 4 }]) as unknown as typeof dns.promises.lookup;
const publicDns = answering('200.160.2.3');

describe('safe webhook targets: addresses', () => {
  it.each([
    ['10/8', '10.0.0.1'], ['10/8 top', '10.255.255.255'], ['172.16/12', '172.16.0.1'], ['172.16/12 top', '172.31.255.255'],
    ['192.168/16', '192.168.1.1'], ['127/8', '127.0.0.1'], ['127/8 other', '127.255.0.7'], ['0/8', '0.0.0.0'], ['0/8 other', '0.1.2.3'],
    ['169.254/16', '169.254.1.1'], ['cloud metadata', '169.254.169.254'], ['100.64/10', '100.64.0.1'], ['100.64/10 top', '100.127.255.254'],
    ['224/4 multicast', '224.0.0.1'], ['224/4 multicast top', '239.255.255.250'], ['broadcast', '255.255.255.255'],
    ['::1', '::1'], ['::', '::'], ['fc00::/7', 'fc00::1'], ['fc00::/7 (fd)', 'fd00:ec2::254'], ['fe80::/10', 'fe80::1'], ['fe80::/10 top', 'febf::1'],
    ['ff00::/8', 'ff02::1'], ['mapped dotted', '::ffff:127.0.0.1'], ['mapped hex', '::ffff:7f00:1'], ['mapped private', '::ffff:10.0.0.1'],
    ['mapped metadata', '::ffff:a9fe:a9fe'], ['IPv4-compatible', '::7f00:1'], ['NAT64 of 127.0.0.1', '64:ff9b::7f00:1'],
    ['NAT64 of 10.0.0.1', '64:ff9b::10.0.0.1'], ['NAT64 of metadata', '64:ff9b::a9fe:a9fe'], ['6to4 of 192.168.0.1', '2002:c0a8:1::1'],
    ['not an address', 'not-an-ip'],
  ])('%s (%s) is refused', (_name, address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['8.8.8.8', '200.160.2.3', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.255.0.1', '11.0.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('safe webhook targets: URLs', () => {
  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'], // decimal
    ['https://0x7f000001/', '127.0.0.1'], // hex
    ['https://0x7f.1/x', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'], // octal
    ['https://127.1/', '127.0.0.1'], // short form
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://[::1]/hook', '::1'],
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['https://[::ffff:7f00:1]/hook', '::ffff:7f00:1'],
    ['https://[64:ff9b::10.0.0.1]/hook', '64:ff9b::a00:1'],
    ['https://[fe80::1]/hook', 'fe80::1'],
  ])('%s is refused as the address it is (%s)', async (url, address) => {
    const reason = await unsafeTargetReason(url, publicDns);
    expect(reason).toBeDefined();
    expect(reason).toContain(`(${address})`);
  });

  it.each(['https://localhost/hook', 'https://LOCALHOST./hook', 'https://x.localhost/hook', 'https://metadata.google.internal/computeMetadata/v1/', 'https://printer.local/', 'https://intranet/hook', 'https://router.home.arpa/'])(
    '%s is refused by name, whatever DNS answers',
    async (url) => expect(await unsafeTargetReason(url, publicDns)).toMatch(/nome local ou interno/),
  );

  it('refuses a DNS name that resolves to 127.0.0.1 (or any private address among several), without saying the address', async () => {
    // The answer goes to a tenant: an internal name's address (split-horizon DNS) is the PSP's to keep.
    const single = await unsafeTargetReason('https://evil.example/hook', answering('10.0.3.7'));
    expect(single).toBe('o host evil.example resolve para um endereço privado, de loopback ou reservado');
    const mixed = (async () => [{ address: '200.160.2.3', family: 4 }, { address: '::1', family: 6 }]) as unknown as typeof dns.promises.lookup;
    const reason = await unsafeTargetReason('https://mixed.example/hook', mixed);
    expect(reason).toMatch(/resolve para um endereço privado/);
    expect(reason).not.toMatch(/::1|200\.160/);
  });

  it('allows a public https URL; refuses http (https only in production) and non-URLs', async () => {
    expect(await unsafeTargetReason('https://good.example/hook', publicDns)).toBeUndefined();
    expect(await unsafeTargetReason('https://8.8.8.8/hook', publicDns)).toBeUndefined();
    expect(await unsafeTargetReason('http://good.example/hook', publicDns)).toMatch(/https/);
    expect(await unsafeTargetReason('ftp://good.example/hook', publicDns)).toMatch(/https/);
    expect(await unsafeTargetReason('nope', publicDns)).toMatch(/URL/);
  });
});

describe('safe webhook targets: connect-time lookup', () => {
  let answer = '200.160.2.3';
  const resolver: LookupAll = (_host, _options, callback) => setImmediate(() => callback(null, [{ address: answer, family: answer.includes(':') ? 6 : 4 }]));
  const lookup = createSafeLookup(resolver);
  const run = (host: string, all = false) =>
    new Promise<{ error: (Error & { code?: string }) | null; address: unknown }>((resolve) => lookup(host, { all }, (error, address) => resolve({ error, address })));

  it('passes public answers through in both callback forms', async () => {
    answer = '200.160.2.3';
    expect(await run('rebind.example')).toEqual({ error: null, address: '200.160.2.3' });
    expect((await run('rebind.example', true)).address).toEqual([{ address: '200.160.2.3', family: 4 }]);
  });

  it('a name that was public at registration and resolves to 127.0.0.1 at delivery is refused then', async () => {
    answer = '200.160.2.3';
    expect(await unsafeTargetReason('https://rebind.example/hook', answering(answer))).toBeUndefined();
    answer = '127.0.0.1';
    const { error } = await run('rebind.example');
    expect(error?.code).toBe('EPRIVATETARGET');
    expect(error?.message).toMatch(/private address \(127\.0\.0\.1\)/);
    answer = '::ffff:169.254.169.254';
    expect((await run('rebind.example', true)).error?.code).toBe('EPRIVATETARGET');
  });

  it('refuses private names without asking DNS', async () => {
    answer = '200.160.2.3';
    for (const host of ['localhost', 'a.localhost', 'metadata.google.internal']) expect((await run(host)).error?.code).toBe('EPRIVATETARGET');
  });
});

describe('private names', () => {
  it.each([['localhost', true], ['x.localhost', true], ['metadata.google.internal', true], ['intranet', true], ['pix.example.com', false], ['127.0.0.1', false], ['localhost.example.com', false]])(
    '%s → %s',
    (name, expected) => expect(isPrivateName(name)).toBe(expected),
  );
});
