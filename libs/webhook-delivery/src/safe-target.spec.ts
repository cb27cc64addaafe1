import { isPrivateAddress, unsafeTargetReason } from './safe-target';

describe('safe webhook targets', () => {
  it.each(['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00:ec2::254', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'])(
    '%s is private, loopback, reserved or not an address',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );

  it.each(['8.8.8.8', '200.160.2.3', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false));

  it('reads decimal and hex host forms as the address they are', async () => {
    expect(await unsafeTargetReason('https://2130706433/x')).toMatch(/127\.0\.0\.1/);
    expect(await unsafeTargetReason('https://0x7f.1/x')).toMatch(/127\.0\.0\.1/);
  });

  it('refuses a name that resolves to a private address, http, and non-URLs; allows a public one', async () => {
    const lookup = (async (host: string) => (host === 'evil.example' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '200.160.2.3', family: 4 }])) as any;
    expect(await unsafeTargetReason('https://evil.example/hook', lookup)).toMatch(/127\.0\.0\.1/);
    expect(await unsafeTargetReason('https://good.example/hook', lookup)).toBeUndefined();
    expect(await unsafeTargetReason('http://good.example/hook', lookup)).toMatch(/https/);
    expect(await unsafeTargetReason('nope', lookup)).toMatch(/URL/);
  });
});
