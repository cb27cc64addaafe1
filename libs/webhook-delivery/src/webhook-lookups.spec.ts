import { WebhookLookups } from './webhook-lookups';

/** Registrations that count reads and answer when told. */
function registrations(answer: () => string | undefined) {
  const r = { reads: 0, urlFor: async (_chave: string) => (r.reads++, answer()) };
  return r;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WebhookLookups', () => {
  it('a read under way is joined, one that found the webhook serves the next deliveries for the window, then it is read again', async () => {
    const r = registrations(() => 'https://receiver.example');
    const lookups = new WebhookLookups(r, 50);
    const [a, b] = await Promise.all([lookups.urlFor('k'), lookups.urlFor('k')]);
    expect([a, b, r.reads]).toEqual(['https://receiver.example', 'https://receiver.example', 1]);
    await lookups.urlFor('k');
    expect(r.reads).toBe(1);
    await lookups.urlFor('other');
    expect(r.reads).toBe(2);
    await sleep(60);
    await lookups.urlFor('k');
    expect(r.reads).toBe(3);
  });

  it('a read that found no webhook is never reused: a PUT right after counts', async () => {
    const registered: { url?: string } = {};
    const r = registrations(() => registered.url);
    const lookups = new WebhookLookups(r, 10_000);
    expect(await lookups.urlFor('k')).toBeUndefined();
    registered.url = 'https://receiver.example';
    expect(await lookups.urlFor('k')).toBe('https://receiver.example');
    expect(r.reads).toBe(2);
  });

  it('a failed read is not reused', async () => {
    let fail = true;
    const lookups = new WebhookLookups({ urlFor: async () => (fail ? Promise.reject(new Error('down')) : 'https://r.example') }, 10_000);
    await expect(lookups.urlFor('k')).rejects.toThrow('down');
    fail = false;
    expect(await lookups.urlFor('k')).toBe('https://r.example');
  });
});
