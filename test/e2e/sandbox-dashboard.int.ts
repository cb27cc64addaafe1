import { mkdirSync } from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { launchChromium } from '../support/chromium';
import { Receiver } from '../support/receiver';

// The local dashboard in a real browser (Debian's Chromium, headless): a developer's path from a
// charge to a webhook, at a phone's width and a desktop's. Screenshots of each step go to
// .cache/sandbox-dashboard/ for a person to look at.
jest.setTimeout(240_000);

const SHOTS = path.join(__dirname, '..', '..', '.cache', 'sandbox-dashboard');
const todaySaoPaulo = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** valor.final of the payload location for a payment date, read here as a bank would (no token). */
const finalOn = async (api: RunningApi, location: string, dpp: string) => {
  const jws = await (await fetch(`${api.baseUrl}${location.slice(location.indexOf('/'))}?DPP=${dpp}`)).text();
  return JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString('utf8')).valor.final as string;
};

describe('sandbox dashboard (local mode, in Chromium)', () => {
  let api: RunningApi;
  let receiver: Receiver;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    receiver = await Receiver.start();
    api = await startApi({ env: { WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms', WEBHOOK_TIMEOUT: '2s' } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await receiver?.close();
  });

  it('serves the page with its own content security policy, and lists notifications for it', async () => {
    const page = await fetch(`${api.baseUrl}/sandbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'/);
    // Everything else keeps the API's default.
    expect((await fetch(`${api.baseUrl}/health`)).headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const session = await (await fetch(`${api.baseUrl}/sandbox/session`)).json();
    expect(session).toMatchObject({ clientId: api.client.clientId, clientSecret: api.client.secret, basePath: '/v2', keys: [LOCAL_KEY], receiver: { cnpj: '56989000019563' } });
    expect((await fetch(`${api.baseUrl}/notifier/notifications?limit=0`)).status).toBe(400);
    expect((await fetch(`${api.baseUrl}/notifier/notifications?limit=2&limit=3`)).status).toBe(400);
    const listed: any = await (await fetch(`${api.baseUrl}/notifier/notifications`)).json();
    // `proximo`: the next page's cursor, null when there is none (here: no notifications yet).
    expect([Object.keys(listed), Array.isArray(listed.notificacoes), listed.proximo]).toEqual([['notificacoes', 'proximo'], true, null]);
    // A batch for the page to show: one request becomes a charge, the other (zero amount) is denied.
    const cobsv = [{ txid: newTxid('lote'), ...validCobV({}, 10) }, { txid: newTxid('lote'), ...validCobV({ valor: { original: '0.00' } }, 10) }];
    expect((await api.request('PUT', '/lotecobv/1', { descricao: 'Mensalidades de dezembro', cobsv })).status).toBe(202);
  });

  for (const width of [1280, 360]) {
    it(`at ${width} px: creates a charge, shows a QR code that decodes to its BR Code, pays it late, shows the delivery and a resend`, async () => {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: width < 500 ? 780 : 900 });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // A refused request is logged by the browser too: those are checked by URL just below.
      page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
      // The only refusal the page meets is "no webhook yet" for a key.
      page.on('response', (r) => r.status() >= 400 && !(r.status() === 404 && new URL(r.url()).pathname.startsWith('/v2/webhook/')) && errors.push(`${r.status()} ${r.url()}`));
      const shot = (n: number, name: string) => page.screenshot({ path: path.join(SHOTS, `${String(n).padStart(2, '0')}-${name}-${width}.png`), fullPage: true });
      await page.goto(`${api.baseUrl}/sandbox`);
      await expectText(page, '#live', /^Live/);
      expect(await page.locator('#client').textContent()).toContain(api.client.secret);

      await expectText(page, '#batch-rows td[data-label="Progress"]', '2/2: 1 CRIADA, 1 NEGADA, 0 in process');

      // 1. The webhook, through its form.
      const hook = `${receiver.url}/hook-${width}`;
      const webhookForm = page.locator(`form.webhook[data-chave="${LOCAL_KEY}"]`);
      await webhookForm.getByLabel('Webhook URL').fill(hook);
      await webhookForm.getByRole('button', { name: 'Save' }).click();
      await expectText(page, `form.webhook[data-chave="${LOCAL_KEY}"] .current`, hook);
      expect((await api.request('GET', `/webhook/${LOCAL_KEY}`)).body.webhookUrl).toBe(hook);

      // 2. A due charge with every modality, through the form; due today.
      const due = todaySaoPaulo();
      // A long name without spaces: the table must wrap it, not widen the page (it did, to 3,477 px).
      await page.getByLabel('Payer name').fill(`Ana-${'Maria'.repeat(34)}-${width}`);
      await page.getByLabel('Payer CPF or CNPJ').fill('12345678909');
      await page.getByLabel('Amount (original)').fill('200.00');
      await page.getByLabel('Due date', { exact: true }).fill(due);
      const modality = async (legend: string, value: string, amount: string) => {
        const set = page.locator('fieldset', { has: page.locator('legend', { hasText: legend }) });
        await set.getByLabel('Modality').selectOption(value);
        if (amount) await set.getByLabel('Amount or %', { exact: true }).fill(amount);
        return set;
      };
      await modality('Fine', '2', '2.00');
      await modality('Interest', '3', '3.00');
      await modality('Rebate', '1', '10.00');
      const discount = await modality('Discount', '1', '');
      await discount.getByLabel('Until date 1').fill(due);
      await discount.getByLabel('Amount or % 1').fill('5.00');
      await page.getByRole('button', { name: 'Create charge' }).click();
      await expectText(page, '#charge-result', /^Created /);
      const txid = (await page.locator('#charge-result').getAttribute('data-txid'))!;
      const cobv = (await api.request('GET', `/cobv/${txid}`)).body;
      expect(cobv.valor).toEqual({ original: '200.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '3.00' }, abatimento: { modalidade: 1, valorPerc: '10.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '5.00' }] } });

      // 3. Its row: status, today's amount (the location's valor.final) and a QR code decoded from a screenshot.
      const row = page.locator(`#charge-rows tr[data-txid="${txid}"]`);
      await expectText(page, `#charge-rows tr[data-txid="${txid}"] .amount`, `R$ ${await finalOn(api, cobv.location, due)}`);
      await expect(row.locator('.status').textContent()).resolves.toBe('ATIVA');
      const qr = row.locator('img.qr');
      await qr.scrollIntoViewIfNeeded();
      await page.waitForFunction((el: any) => el.complete && el.naturalWidth > 0, await qr.elementHandle());
      const png = PNG.sync.read(await qr.screenshot({ path: path.join(SHOTS, `01-qr-${width}.png`) }));
      expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(cobv.pixCopiaECola);
      await shot(2, 'charge');

      // 4. Pay it three days late: the form shows what that date costs, then pays exactly that.
      const late = plusDays(due, 3);
      const lateFinal = await finalOn(api, cobv.location, late);
      expect(lateFinal).not.toBe(await finalOn(api, cobv.location, due));
      await row.getByRole('button', { name: 'Pay…' }).click();
      await page.getByLabel('Payment date').fill(late);
      await expectText(page, '#pay-cost', `R$ ${lateFinal}`);
      await shot(3, 'pay');
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await expectText(page, '#pay-result', new RegExp(`^Paid R\\$ ${lateFinal.replace('.', '\\.')} on ${late}`));
      const e2e = /endToEndId (E\w{31})/.exec((await page.locator('#pay-result').textContent())!)![1];
      await expectText(page, `#charge-rows tr[data-txid="${txid}"] .status`, 'CONCLUIDA');
      await expectText(page, `#charge-rows tr[data-txid="${txid}"] .amount`, `paid R$ ${lateFinal}`);
      expect((await api.request('GET', `/cobv/${txid}`)).body).toMatchObject({ status: 'CONCLUIDA', pix: [{ endToEndId: e2e, valor: lateFinal }] });

      // 5. The delivery in the log (time, URL, status, latency), then a resend: a second attempt.
      await receiver.waitUntil(() => receiver.forEndToEndId(e2e).length === 1, 15_000, 'the webhook delivery');
      const note = `#notification-list article[data-txid="${txid}"]`;
      await expectText(page, `${note} .status`, 'delivered');
      const attempts = page.locator(`${note} table.attempts tbody tr`);
      await expect(attempts.count()).resolves.toBe(1);
      expect(await attempts.first().textContent()).toMatch(new RegExp(`${hook}/pix.*200.*\\d+ ms`));
      await page.locator(note).scrollIntoViewIfNeeded();
      await shot(4, 'delivered');
      await page.locator(note).getByRole('button', { name: 'Resend' }).click();
      await receiver.waitUntil(() => receiver.forEndToEndId(e2e).length === 2, 15_000, 'the resent delivery');
      await page.waitForFunction((sel) => (globalThis as any).document.querySelectorAll(sel).length === 2, `${note} table.attempts tbody tr`, { timeout: 10_000 });
      const ids = receiver.forEndToEndId(e2e).map((r) => r.headers['webhook-id']);
      expect(ids[0]).toBe(ids[1]);
      await shot(5, 'resent');

      // The page never scrolls sideways, at either width; nothing was blocked by the policy or thrown.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('is not there in production mode', async () => {
    const production = await startApi({ env: { MODE: 'production' } });
    try {
      for (const p of ['/sandbox', '/sandbox/app.js', '/sandbox/session']) expect([p, (await fetch(`${production.baseUrl}${p}`)).status]).toEqual([p, 404]);
    } finally {
      await production.stop();
    }
  });
});

/** Waits until the element's text equals `expected` (or matches it), else fails saying what it showed. */
async function expectText(page: Page, selector: string, expected: string | RegExp, timeout = 10_000): Promise<void> {
  const matches = (t: string) => (typeof expected === 'string' ? t.trim() === expected : expected.test(t.trim()));
  const deadline = Date.now() + timeout;
  let last = '';
  while (Date.now() < deadline) {
    last = (await page.locator(selector).first().textContent({ timeout: 1000 }).catch(() => null)) ?? '(absent)';
    if (matches(last)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${selector}: expected ${expected}, showed "${last}"`);
}
