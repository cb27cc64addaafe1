// The local sandbox dashboard (ADR 13): plain browser JavaScript, no framework, no build step.
// It is an ordinary client of the API: a token from /oauth/token, then the same /v2 endpoints,
// the payload locations, the sandbox payer and the notifier's operator endpoints.
'use strict';

const DAY = 86_400_000;
const state = { session: null, token: null, tokenRequest: null, tokenUntil: 0, base: '/v2', qr: new Map(), due: new Map(), shown: new Map(), notes: new Map(), updatedAt: null };
/** How long an action's confirmation stays beside its notification (the page refreshes every second). */
const NOTE_MS = 6000;

// ---- small helpers -------------------------------------------------------------------------

/** Builds an element: attributes (on* are listeners) and children (strings become text). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false && c !== '') el.append(c instanceof Node ? c : String(c));
  return el;
}
const $ = (id) => document.getElementById(id);
/** Today in São Paulo (business dates of Pix), as YYYY-MM-DD. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const money = (v) => (v === undefined || v === null ? '–' : `R$ ${v}`);
const time = (iso) => (iso ? new Date(iso).toLocaleString('en-GB', { hour12: false }) : '–');
/** Replaces a container's content only when what it shows changed (no flicker, no lost focus). */
function show(container, key, build) {
  if (state.shown.get(container.id) === key) return;
  state.shown.set(container.id, key);
  container.replaceChildren(...[].concat(build()));
}
/** A problem (RFC 7807) as one readable line, with the properties at fault. */
function describe(body, status) {
  if (!body || typeof body !== 'object') return `HTTP ${status}`;
  // A violation the detail already says is not said twice.
  const v = (body.violacoes || []).filter((x) => !(body.detail && x.razao && body.detail.includes(x.razao))).map((x) => `${x.propriedade}: ${x.razao}`).join('; ');
  return `${body.title || body.error || `HTTP ${status}`}${body.detail ? ` — ${body.detail}` : ''}${v ? ` (${v})` : ''}`;
}

/**
 * Why an action or a refresh failed, in plain words: fetch rejects (a TypeError, "Failed to
 * fetch") when nothing answered at all (the API stopped, a wrong port), not on HTTP errors.
 */
function failure(error) {
  return error instanceof TypeError ? `The API did not answer: ${error.message}. Is it running?` : error.message;
}

/** Runs a form's action, showing a failure to reach the API in the form's own output. */
async function guarded(out, action) {
  try {
    await action();
  } catch (error) {
    out.value = failure(error);
    out.className = 'error';
  }
}

// ---- talking to the API ----------------------------------------------------------------------

/** The page's bearer token; calls made together share one token request. */
async function token() {
  if (state.token && Date.now() < state.tokenUntil) return state.token;
  state.tokenRequest ??= (async () => {
    const s = state.session;
    const r = await fetch(s.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret }) });
    const body = await r.json();
    if (!r.ok) throw new Error(`token: ${describe(body, r.status)}`);
    state.token = body.access_token;
    state.tokenUntil = Date.now() + (body.expires_in - 60) * 1000;
    return state.token;
  })().finally(() => {
    state.tokenRequest = null;
  });
  return state.tokenRequest;
}

/** Marks the page's own polls: the API in local mode does not log their successes (the terminal stays the developer's). */
const POLL = { 'x-pix-dashboard-poll': '1' };

/** Calls the API; `api: true` prefixes the base path and sends the bearer token; `poll: true` marks a refresh. Never throws on HTTP errors. */
async function call(method, path, body, { api = true, poll = false } = {}) {
  const headers = poll ? { ...POLL } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (api) headers.authorization = `Bearer ${await token()}`;
  const r = await fetch(api ? state.base + path : path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status === 401 && api) state.token = null;
  const text = await r.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { ok: r.ok, status: r.status, body: json };
}

/** What a charge costs on `date` (DPP): the payload location's JWS, payload decoded for display only. */
async function costOn(location, date, { poll = false } = {}) {
  const path = location.slice(location.indexOf('/'));
  const r = await fetch(`${path}?DPP=${encodeURIComponent(date)}`, { headers: poll ? POLL : {} });
  const text = await r.text();
  if (!r.ok) return { error: describe(JSON.parse(text), r.status) };
  const payload = text.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  const json = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))));
  return { final: json.valor.final };
}

// ---- sections --------------------------------------------------------------------------------

function renderSession() {
  const s = state.session;
  const r = s.receiver || {};
  const pairs = (list) => list.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]);
  $('receiver-details').replaceChildren(...pairs([['Name', r.nome], [r.cpf ? 'CPF' : 'CNPJ', r.cnpj || r.cpf], ['Address', `${r.logradouro}, ${r.cidade}/${r.uf}, CEP ${r.cep}`]]));
  $('keys').replaceChildren(...s.keys.map((k) => h('li', null, h('code', null, k))));
  $('client').replaceChildren(...pairs([['client_id', h('code', null, s.clientId)], ['client_secret', h('code', null, s.clientSecret)], ['token URL', h('code', null, `POST ${s.tokenUrl}`)], ['API', h('code', null, `${location.origin}${s.basePath}`)]]));
  const select = document.querySelector('#charge-form [name=chave]');
  select.replaceChildren(...s.keys.map((k) => h('option', { value: k }, k)));
  document.querySelector('#charge-form [name=dataDeVencimento]').value = today();
  document.querySelector('#pay-form [name=data]').value = today();
}

/**
 * The newest `n` items created in the last 30 days: lists come oldest first, so after the first
 * page (which gives the count) the last page is read, and the one before when it is short.
 */
async function newest(path, member, n) {
  const period = `inicio=${new Date(Date.now() - 30 * DAY).toISOString()}&fim=${new Date(Date.now() + DAY).toISOString()}&paginacao.itensPorPagina=${n}`;
  const page = async (i) => {
    const r = await call('GET', `${path}?${period}&paginacao.paginaAtual=${i}`, undefined, { poll: true });
    if (!r.ok) throw new Error(`${path}: ${describe(r.body, r.status)}`);
    return r.body;
  };
  const first = await page(0);
  const pages = first.parametros.paginacao.quantidadeDePaginas;
  if (pages <= 1) return first[member];
  const last = await page(pages - 1);
  const before = last[member].length < n ? (await page(pages - 2))[member] : [];
  return [...before, ...last[member]].slice(-n);
}

async function refreshCharges() {
  const cobs = (await newest('/cobv', 'cobs', 25)).sort((a, b) => (a.calendario.criacao < b.calendario.criacao ? 1 : -1));
  const day = today();
  await Promise.all(cobs.map(async (c) => {
    if (c.status === 'ATIVA' && c.location && !state.due.has(`${c.txid}/${c.revisao}/${day}`)) {
      state.due.set(`${c.txid}/${c.revisao}/${day}`, await costOn(c.location, day, { poll: true }));
    }
    // Only an ATIVA charge has a QR code to pay (GET .../qrcode refuses the others).
    if (c.status === 'ATIVA' && c.pixCopiaECola && state.qr.get(c.txid)?.code !== c.pixCopiaECola) {
      const q = await call('GET', `/cobv/${c.txid}/qrcode`, undefined, { poll: true });
      if (q.ok) state.qr.set(c.txid, { code: c.pixCopiaECola, image: q.body.imagemQrcode });
    }
  }));
  const dueOf = (c) => state.due.get(`${c.txid}/${c.revisao}/${day}`);
  const key = JSON.stringify(cobs.map((c) => [c.txid, c.revisao, c.status, dueOf(c), c.pix && c.pix.length, state.qr.get(c.txid)?.code]));
  show($('charge-rows'), key, () => (cobs.length === 0 ? h('tr', null, h('td', { colspan: 8 }, 'No charges yet: create one above.')) : cobs.map((c) => chargeRow(c, dueOf(c)))));
  const payable = cobs.filter((c) => c.status === 'ATIVA' && c.location);
  const select = document.querySelector('#pay-form [name=txid]');
  const chosen = select.value;
  show(select, JSON.stringify(payable.map((c) => c.txid)), () => (payable.length === 0 ? h('option', { value: '' }, 'no active charge') : payable.map((c) => h('option', { value: c.txid, dataset: { location: c.location } }, `${c.txid} (${c.devedor ? c.devedor.nome : 'no payer'}, R$ ${c.valor.original})`))));
  if (payable.some((c) => c.txid === chosen)) select.value = chosen;
  if (select.value !== state.costFor) void updateCost({ poll: true });
}

function chargeRow(c, due) {
  const qr = c.status === 'ATIVA' ? state.qr.get(c.txid) : undefined;
  const paid = c.pix && c.pix[0];
  const amount = paid ? `paid ${money(paid.valor)}` : due ? (due.error ? due.error : money(due.final)) : '–';
  const pay = c.status === 'ATIVA' && c.location ? h('button', { type: 'button', onclick: () => choosePayment(c.txid) }, 'Pay…') : '';
  return h('tr', { dataset: { txid: c.txid, status: c.status } },
    h('td', { 'data-label': 'txid' }, h('code', { class: 'txid' }, c.txid)),
    h('td', { 'data-label': 'Payer' }, c.devedor ? c.devedor.nome : '–'),
    h('td', { 'data-label': 'Due' }, c.calendario.dataDeVencimento),
    h('td', { 'data-label': 'Status' }, h('span', { class: `status ${c.status}` }, c.status)),
    h('td', { 'data-label': 'Original' }, money(c.valor.original)),
    h('td', { 'data-label': 'Due today / paid', class: 'amount' }, amount),
    h('td', { 'data-label': 'QR code' }, qr ? h('img', { class: 'qr', src: qr.image, alt: `QR code of charge ${c.txid}`, width: 164, height: 164 }) : '–'),
    h('td', { 'data-label': 'Action' }, pay));
}

function choosePayment(txid) {
  const select = document.querySelector('#pay-form [name=txid]');
  select.value = txid;
  void updateCost();
  $('pay').scrollIntoView({ block: 'start' });
  document.querySelector('#pay-form [name=data]').focus();
}

/** The chosen charge's cost on the chosen date; `poll`: asked by a refresh, not by the person. */
async function updateCost({ poll = false } = {}) {
  const select = document.querySelector('#pay-form [name=txid]');
  const date = document.querySelector('#pay-form [name=data]').value;
  const option = select.selectedOptions[0];
  state.costFor = select.value;
  const out = $('pay-cost');
  // Only the latest question is answered: choosing the charge, then the date, asks twice, and
  // the first answer arriving last showed the cost of a date no longer chosen (a browser test).
  const asked = (state.costAsked = (state.costAsked ?? 0) + 1);
  if (!option || !option.value || !date) return void (out.value = '–');
  out.className = '';
  await guarded(out, async () => {
    const cost = await costOn(option.dataset.location, date, { poll }).catch((thrown) => ({ thrown }));
    if (asked !== state.costAsked) return;
    if (cost.thrown) throw cost.thrown;
    out.value = cost.error ? cost.error : money(cost.final);
    out.className = cost.error ? 'error' : '';
    out.dataset.final = cost.final || '';
  });
}

async function pay(event) {
  event.preventDefault();
  const form = event.target;
  const out = $('pay-result');
  await guarded(out, async () => {
    const r = await call('POST', '/sandbox/cash-in', { txid: form.txid.value, data: form.data.value }, { api: false });
    out.value = r.ok ? `Paid ${money(r.body.valor)} on ${form.data.value}: endToEndId ${r.body.endToEndId}` : `Refused: ${describe(r.body, r.status)}`;
    out.className = r.ok ? 'ok' : 'error';
  });
  await tick();
}

/** The charge form as a CobV request body: only the modalities chosen. */
function chargeBody(f) {
  const v = (name) => f[name].value.trim();
  const doc = v('documento').replace(/[.\-/\s]/g, '');
  const valor = { original: v('original') };
  if (v('multaModalidade')) valor.multa = { modalidade: Number(v('multaModalidade')), valorPerc: v('multaValor') };
  if (v('jurosModalidade')) valor.juros = { modalidade: Number(v('jurosModalidade')), valorPerc: v('jurosValor') };
  if (v('abatimentoModalidade')) valor.abatimento = { modalidade: Number(v('abatimentoModalidade')), valorPerc: v('abatimentoValor') };
  const d = Number(v('descontoModalidade'));
  if (d === 1 || d === 2) {
    const fixed = [1, 2, 3].filter((i) => v(`descontoData${i}`)).map((i) => ({ data: v(`descontoData${i}`), valorPerc: v(`descontoValor${i}`) }));
    valor.desconto = { modalidade: d, descontoDataFixa: fixed };
  } else if (d) valor.desconto = { modalidade: d, valorPerc: v('descontoValor') };
  const calendario = { dataDeVencimento: v('dataDeVencimento') };
  if (v('validadeAposVencimento') !== '') calendario.validadeAposVencimento = Number(v('validadeAposVencimento'));
  const body = { calendario, devedor: { [doc.length === 11 ? 'cpf' : 'cnpj']: doc, nome: v('nome') }, valor, chave: v('chave') };
  if (v('solicitacaoPagador')) body.solicitacaoPagador = v('solicitacaoPagador');
  return body;
}

/** A modality chosen without its amount (the placeholders are examples, not values), in plain words. */
function missingAmounts(f) {
  const names = { multa: 'Fine', juros: 'Interest', abatimento: 'Rebate' };
  const missing = Object.keys(names).filter((k) => f[`${k}Modalidade`].value && !f[`${k}Valor`].value.trim());
  const d = Number(f.descontoModalidade.value);
  if (d >= 3 && !f.descontoValor.value.trim()) missing.push('desconto');
  return missing.length === 0 ? '' : `Enter an amount or % for the modality chosen: ${missing.map((k) => names[k] || 'Discount').join(', ')}.`;
}

async function createCharge(event) {
  event.preventDefault();
  const f = event.target;
  const txid = f.txid.value.trim() || (crypto.randomUUID() + crypto.randomUUID()).replace(/-/g, '').slice(0, 32);
  const out = $('charge-result');
  out.dataset.txid = '';
  const missing = missingAmounts(f);
  if (missing) {
    out.value = missing;
    out.className = 'error';
    return;
  }
  await guarded(out, async () => {
    const r = await call('PUT', `/cobv/${encodeURIComponent(txid)}`, chargeBody(f));
    out.value = r.ok ? `Created ${txid} (revisão ${r.body.revisao}).` : `Refused: ${describe(r.body, r.status)}`;
    out.className = r.ok ? 'ok' : 'error';
    out.dataset.txid = r.ok ? txid : '';
    if (r.ok) f.txid.value = '';
  });
  await tick();
}

async function refreshBatches() {
  const lotes = (await newest('/lotecobv', 'lotes', 10)).reverse();
  show($('batch-rows'), JSON.stringify(lotes), () => (lotes.length === 0 ? h('tr', null, h('td', { colspan: 4 }, 'No batches (PUT /v2/lotecobv/{id} creates one).')) : lotes.map((l) => {
    const count = (s) => l.cobsv.filter((c) => c.status === s || (s === 'EM_PROCESSAMENTO' && c.status === 'EMPROCESSAMENTO')).length;
    const done = count('CRIADA') + count('NEGADA');
    return h('tr', null,
      h('td', { 'data-label': 'Id' }, l.id),
      h('td', { 'data-label': 'Description' }, l.descricao),
      h('td', { 'data-label': 'Created' }, time(l.criacao)),
      h('td', { 'data-label': 'Progress' }, h('progress', { max: l.cobsv.length, value: done, 'aria-label': `batch ${l.id}: ${done} of ${l.cobsv.length} decided` }),
        ` ${done}/${l.cobsv.length}: ${count('CRIADA')} CRIADA, ${count('NEGADA')} NEGADA, ${count('EM_PROCESSAMENTO')} in process`));
  })));
}

async function refreshWebhooks() {
  const rows = await Promise.all(state.session.keys.map(async (chave) => ({ chave, r: await call('GET', `/webhook/${encodeURIComponent(chave)}`, undefined, { poll: true }) })));
  show($('webhook-list'), JSON.stringify(rows.map(({ chave, r }) => [chave, r.ok && r.body.webhookUrl])), () => rows.map(({ chave, r }, i) =>
    h('form', { class: 'webhook', dataset: { chave }, onsubmit: saveWebhook },
      h('p', null, 'Key ', h('code', null, chave), ': ', r.ok ? h('code', { class: 'current' }, r.body.webhookUrl) : h('span', { class: 'current' }, 'no webhook')),
      h('label', { for: `webhook-url-${i}` }, 'Webhook URL'),
      h('div', { class: 'inline' },
        h('input', { id: `webhook-url-${i}`, name: 'webhookUrl', type: 'url', required: true, placeholder: 'http://localhost:9000/hook', value: r.ok ? r.body.webhookUrl : '' }),
        h('button', { type: 'submit' }, 'Save')),
      h('output', { role: 'status', 'aria-live': 'polite' }))));
}

async function saveWebhook(event) {
  event.preventDefault();
  const form = event.target;
  const out = form.querySelector('output');
  await guarded(out, async () => {
    const r = await call('PUT', `/webhook/${encodeURIComponent(form.dataset.chave)}`, { webhookUrl: form.webhookUrl.value.trim() });
    if (!r.ok) {
      out.value = `Refused: ${describe(r.body, r.status)}`;
      out.className = 'error';
      return;
    }
    state.shown.delete('webhook-list');
    await refreshWebhooks();
  });
}

async function refreshNotifications() {
  const r = await call('GET', '/notifier/notifications?limit=20', undefined, { api: false, poll: true });
  if (!r.ok) throw new Error(`notifications: ${describe(r.body, r.status)}`);
  const list = r.body.notificacoes;
  for (const [id, note] of state.notes) if (note.until <= Date.now()) state.notes.delete(id);
  show($('notification-list'), JSON.stringify([list, [...state.notes]]), () => (list.length === 0 ? h('p', null, 'No notifications yet: pay a charge.') : list.map((n) =>
    h('article', { class: 'notification', dataset: { id: n.id, txid: n.txid, status: n.status } },
      h('h3', null, `${n.pix.valor ? money(n.pix.valor) : ''} for `, h('code', null, n.txid), ' ', h('span', { class: `status ${n.status}` }, n.status)),
      h('p', { class: 'meta' }, 'endToEndId ', h('code', null, n.endToEndId), ` · queued ${time(n.createdAt)}`, n.reason ? ` · ${n.reason}` : ''),
      n.attempts.length === 0 ? h('p', null, 'No attempts yet.') : h('table', { class: 'attempts stack' },
        h('caption', null, `Delivery attempts (${n.attempts.length})`),
        h('thead', null, h('tr', null, ...['#', 'Time', 'URL', 'HTTP status', 'Latency', 'Error', 'Outcome'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', null, n.attempts.map((a) => h('tr', { class: a.outcome },
          // The API's number: attempts count within a cycle, and a resend starts one at 1 again.
          h('td', { 'data-label': '#' }, a.resend > 0 ? `${a.attempt} (after resend ${a.resend})` : a.attempt),
          h('td', { 'data-label': 'Time' }, time(a.at)),
          h('td', { 'data-label': 'URL' }, h('code', null, a.url || '–')),
          h('td', { 'data-label': 'HTTP status' }, a.statusCode ?? '–'),
          h('td', { 'data-label': 'Latency' }, `${a.latencyMs} ms`),
          h('td', { 'data-label': 'Error' }, a.error || '–'),
          h('td', { 'data-label': 'Outcome' }, a.outcome))))),
      h('div', { class: 'inline' },
        h('button', { type: 'button', disabled: n.status === 'pending' && !parked(n), onclick: () => resend(n.id) }, 'Resend'),
        noteOutput(state.notes.get(n.id)))))));
}

/** A notification's action result, kept NOTE_MS so the next refresh does not wipe it. */
function noteOutput(note) {
  return h('output', { role: 'status', 'aria-live': 'polite', class: note ? note.className : undefined }, note ? note.text : '');
}

/** Pending but waiting for a later attempt (a Retry-After may say 24 h), not in flight: a resend makes it due now. */
const parked = (n) => Date.parse(n.nextAttemptAt) > Date.now() && !(n.leaseUntil && Date.parse(n.leaseUntil) > Date.now());

async function resend(id) {
  let note;
  try {
    const r = await call('POST', '/notifier/resend', { ids: [id] }, { api: false });
    note = r.ok ? { text: r.body.reenviadas > 0 ? 'Resend queued.' : 'Nothing to resend (already in flight).', className: 'ok' } : { text: `Resend refused: ${describe(r.body, r.status)}`, className: 'error' };
  } catch (error) {
    note = { text: failure(error), className: 'error' };
  }
  state.notes.set(id, { ...note, until: Date.now() + NOTE_MS });
  // Shown at once, also when the list cannot be refreshed (the API away).
  const out = document.querySelector(`article.notification[data-id="${CSS.escape(id)}"] output`);
  if (out) out.replaceWith(noteOutput(note));
  await tick();
}

// ---- the loop ------------------------------------------------------------------------------------

let running = false;
const clock = (d) => d.toLocaleTimeString('en-GB', { hour12: false });
/** One refresh of every live section; polling once a second (a refresh never overlaps another). */
async function tick() {
  // A tab in the background does not poll; it refreshes when shown again.
  if (running || document.hidden) return;
  running = true;
  try {
    await Promise.all([refreshCharges(), refreshBatches(), refreshNotifications()]);
    state.updatedAt = new Date();
    $('live').textContent = `Live · updated ${clock(state.updatedAt)}`;
    $('live').className = '';
  } catch (error) {
    $('live').textContent = `Not updated${state.updatedAt ? ` since ${clock(state.updatedAt)}` : ''}: ${failure(error)}`;
    $('live').className = 'error';
  } finally {
    running = false;
  }
}

async function start() {
  const r = await fetch('/sandbox/session');
  state.session = await r.json();
  state.base = state.session.basePath;
  renderSession();
  $('charge-form').addEventListener('submit', createCharge);
  $('pay-form').addEventListener('submit', pay);
  $('pay-form').addEventListener('change', () => void updateCost());
  await Promise.all([tick(), refreshWebhooks()]);
  setInterval(tick, 1000);
  setInterval(() => void (document.hidden ? undefined : refreshWebhooks().catch(() => undefined)), 5000);
  document.addEventListener('visibilitychange', () => void tick());
}

document.addEventListener('DOMContentLoaded', () =>
  void start().catch((e) => {
    $('live').textContent = `Could not start: ${failure(e)}`;
    $('live').className = 'error';
  }));
