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
      // The API's attempt numbers (a resend starts again at 1, marked), and the confirmation outlives the 1 s refreshes.
      await expectText(page, `${note} table.attempts tbody tr:nth-child(2) td[data-label="#"]`, '1 (after resend 1)');
      expect(await attempts.locator('td[data-label="Outcome"]').allTextContents()).toEqual(['delivered', 'delivered']);
      await page.waitForTimeout(2500);
      await expectText(page, `${note} output`, 'Resend queued.', 1000);
      await shot(5, 'resent');

      // The page never scrolls sideways, at either width; nothing was blocked by the policy or thrown.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('says so in plain words when the API does not answer: in the form acted on, and readably in the header', async () => {
    // Something to act on: an active charge and a notification (delivered to the test receiver).
    const hook = `${receiver.url}/down`;
    expect((await api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: hook })).status).toBeLessThan(300);
    const paid = newTxid('down');
    expect((await api.request('PUT', `/cobv/${paid}`, validCobV({}, 0))).status).toBe(201);
    expect((await fetch(`${api.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ txid: paid, data: todaySaoPaulo() }) })).status).toBe(202);
    const open = newTxid('open');
    expect((await api.request('PUT', `/cobv/${open}`, validCobV({}, 0))).status).toBe(201);

    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const thrown: string[] = [];
    page.on('pageerror', (e) => thrown.push(e.message));
    await page.goto(`${api.baseUrl}/sandbox`);
    await expectText(page, '#live', /^Live/);
    await expectText(page, `#notification-list article[data-txid="${paid}"] .status`, 'delivered');

    // While it answers: a modality without its amount is named before sending (placeholders are examples).
    const fine = page.locator('fieldset', { has: page.locator('legend', { hasText: 'Fine' }) });
    await fine.getByLabel('Modality').selectOption('2');
    await expect(fine.getByLabel('Amount or %', { exact: true }).getAttribute('placeholder')).resolves.toBe('e.g. 2.00');
    await page.getByRole('button', { name: 'Create charge' }).click();
    await expectText(page, '#charge-result', 'Enter an amount or % for the modality chosen: Fine.');
    await fine.getByLabel('Modality').selectOption('');
    // A payment date past the charge's validity: its reason once, not twice. Choosing the charge
    // asks the cost for today first; that answer, held back to arrive last, must not win.
    const late = `DPP=${todaySaoPaulo()}`;
    await page.route((url) => url.search.includes(late), async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await page.locator('#pay-form [name=txid]').selectOption(open);
    await page.getByLabel('Payment date').fill(plusDays(todaySaoPaulo(), 90));
    await expectText(page, '#pay-cost', /DPP superior/);
    await page.waitForTimeout(1000);
    await expectText(page, '#pay-cost', /DPP superior/);
    expect((await page.locator('#pay-cost').textContent())!.split('DPP superior').length).toBe(2);
    await page.unroute((url) => url.search.includes(late));
    await page.getByLabel('Payment date').fill(todaySaoPaulo());

    // Then nothing answers (as with the API stopped): every request the page makes is refused.
    await page.route('**/*', (route) => route.abort('connectionrefused'));
    const didNotAnswer = /^The API did not answer: Failed to fetch/;
    await page.getByRole('button', { name: 'Create charge' }).click();
    await expectText(page, '#charge-result', didNotAnswer);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expectText(page, '#pay-result', didNotAnswer);
    const webhookForm = page.locator(`form.webhook[data-chave="${LOCAL_KEY}"]`);
    await webhookForm.getByRole('button', { name: 'Save' }).click();
    await expectText(page, `form.webhook[data-chave="${LOCAL_KEY}"] output`, didNotAnswer);
    const note = page.locator(`#notification-list article[data-txid="${paid}"]`);
    await note.getByRole('button', { name: 'Resend' }).click();
    await expectText(page, `#notification-list article[data-txid="${paid}"] output`, didNotAnswer);
    await expectText(page, '#live', /^Not updated since \d\d:\d\d:\d\d: The API did not answer: Failed to fetch/);
    // Readable on the green bar: WCAG AA contrast (4.5:1) between the text and what is behind it.
    expect(await page.locator('#live').evaluate(contrast)).toBeGreaterThanOrEqual(4.5);
    await page.screenshot({ path: path.join(SHOTS, '06-api-down-1280.png'), fullPage: true });
    expect(thrown).toEqual([]);
    await page.close();
  });

  it("marks its once-a-second polls, whose successes local mode leaves out of the access log, and stops polling in a hidden tab", async () => {
    const page = await browser.context.newPage();
    // A charge to pay: the page fetches its QR code and today's cost by itself.
    const ativa = newTxid('poll');
    expect((await api.request('PUT', `/cobv/${ativa}`, validCobV({}, 10))).status).toBe(201);
    const polls: { url: string; marked: boolean }[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      // Everything the page fetches by itself (lists, QR codes, a charge's cost today), not the page's own files.
      if (r.method() === 'GET' && !/^\/(sandbox|favicon)/.test(url.pathname)) polls.push({ url: url.pathname, marked: r.headers()['x-pix-dashboard-poll'] === '1' });
    });
    await page.goto(`${api.baseUrl}/sandbox`);
    await expectText(page, '#live', /^Live/);
    await page.waitForTimeout(2_500);
    const prefixes = new Set(polls.map((p) => p.url.split('/').slice(0, 3).join('/')));
    for (const fetched of ['/v2/cobv', '/v2/lotecobv', '/v2/webhook', '/notifier/notifications']) expect(prefixes).toContain(fetched);
    expect(polls.some((p) => p.url === `/v2/cobv/${ativa}/qrcode`)).toBe(true);
    expect(polls.filter((p) => !p.marked)).toEqual([]);
    // Hidden: no poll goes out; shown again: it refreshes at once.
    await page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, get: () => true }); document.dispatchEvent(new Event('visibilitychange'))`);
    await page.waitForTimeout(300);
    const before = polls.length;
    await page.waitForTimeout(2_500);
    expect(polls.length).toBe(before);
    await page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, get: () => false }); document.dispatchEvent(new Event('visibilitychange'))`);
    await page.waitForTimeout(500);
    expect(polls.length).toBeGreaterThan(before);
    await page.close();
  });

  it('is not there in production mode', async () => {
    const production = await startApi({ env: { MODE: 'production' } });
    try {
      for (const p of ['/sandbox', '/sandbox/app.js', '/sandbox/session']) expect([p, (await fetch(`${production.baseUrl}${p}`)).status]).toEqual([p, 404]);
    } finally {
      await production.stop();
    }
  });
});

/** The contrast ratio of an element's text against its own background, or its nearest ancestor's (runs in the page). */
function contrast(el: any): number {
  const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const lum = ([r, g, b]: number[]) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let back = el;
  const g = globalThis as any;
  while (back && rgb(g.getComputedStyle(back).backgroundColor)[3] === 0) back = back.parentElement;
  const [a, b] = [lum(rgb(g.getComputedStyle(el).color)), lum(rgb(g.getComputedStyle(back).backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

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
