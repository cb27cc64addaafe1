import { NOTIFICATION_ID_NAMESPACE, notificationIdFor, uuidV5 } from './notification-id';
import { decodeSigningSecret, signWebhook } from './signature';

describe('notification ids', () => {
  it('implements UUID v5 (RFC 9562 example: DNS namespace, "www.example.com")', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('derives the same id from the same endToEndId, a different one otherwise', () => {
    const e2e = 'E12345678202611221015abcdefghijk';
    expect(notificationIdFor(e2e)).toBe(notificationIdFor(e2e));
    expect(notificationIdFor(e2e)).toBe(uuidV5(e2e, NOTIFICATION_ID_NAMESPACE));
    expect(notificationIdFor(e2e)).not.toBe(notificationIdFor(`${e2e.slice(0, -1)}l`));
    expect(notificationIdFor(e2e)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('Standard Webhooks signature', () => {
  it('matches the reference example of the Standard Webhooks libraries', () => {
    const secret = decodeSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('rejects a secret that is not base64', () => {
    expect(() => decodeSigningSecret('whsec_')).toThrow(/invalid signingSecret/);
    expect(() => decodeSigningSecret('whsec_not base64!')).toThrow(/invalid signingSecret/);
    // Buffer.from ignores surplus padding: this would decode to a 3-byte key.
    expect(() => decodeSigningSecret('whsec_AAAA============')).toThrow(/invalid signingSecret/);
    expect(decodeSigningSecret('whsec_AAE')).toEqual(Buffer.from([0, 1]));
  });
});
