import { WEBHOOK_SNAPSHOT, webhookDecider, webhookDoRecebedor, type WebhookCommand, type WebhookEvent } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(webhookDecider);
const now = new Date('2026-11-22T12:00:00.123Z');
const chave = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';
const put = (webhookUrl: string, over: Partial<Extract<WebhookCommand, { type: 'ConfigurarWebhook' }>> = {}): WebhookCommand => ({
  type: 'ConfigurarWebhook',
  chave,
  webhookUrl,
  now,
  recebedorId: 'loja-a',
  chavesDoRecebedor: [chave],
  politica: { permitirHttp: false },
  ...over,
});
const configured: WebhookEvent[] = [{ type: 'WebhookConfigurado', data: { chave, webhookUrl: 'https://r.example/hook', criacao: now.toISOString(), recebedorId: 'loja-a' } }];

describe('webhook decider', () => {
  it('a registration made after a removal remembers when the key was last removed; a new URL keeps it; a first one has none', () => {
    const fold = (events: WebhookEvent[]) => events.reduce(webhookDecider.evolve, webhookDecider.initialState);
    const removed: WebhookEvent = { type: 'WebhookRemovido', data: { chave, em: '2026-11-22T12:05:00.000Z', recebedorId: 'loja-a' } };
    const again: WebhookEvent = { type: 'WebhookConfigurado', data: { chave, webhookUrl: 'https://r.example/hook', criacao: '2026-11-22T12:06:00.000Z', recebedorId: 'loja-a' } };
    const moved: WebhookEvent = { type: 'WebhookConfigurado', data: { ...again.data, webhookUrl: 'https://r.example/new', criacao: '2026-11-22T12:07:00.000Z' } };
    expect(fold(configured)).not.toHaveProperty('removidoEm');
    expect(fold([...configured, removed])).toEqual({ exists: false, removidoEm: '2026-11-22T12:05:00.000Z' });
    expect(fold([...configured, removed, again])).toMatchObject({ exists: true, removidoEm: '2026-11-22T12:05:00.000Z' });
    expect(fold([...configured, removed, again, moved])).toMatchObject({ exists: true, webhookUrl: 'https://r.example/new', removidoEm: '2026-11-22T12:05:00.000Z' });
  });

  it('a snapshot restores the state it was taken of, through JSON, removed or registered; another shape is refused', () => {
    const fold = (events: WebhookEvent[]) => events.reduce(webhookDecider.evolve, webhookDecider.initialState);
    const removed: WebhookEvent = { type: 'WebhookRemovido', data: { chave, em: '2026-11-22T12:05:00.000Z', recebedorId: 'loja-a' } };
    for (const state of [webhookDecider.initialState, fold(configured), fold([...configured, removed]), fold([...configured, removed, ...configured])])
      expect(WEBHOOK_SNAPSHOT.restore(JSON.parse(JSON.stringify(state)))).toEqual(state);
    for (const json of [null, 'x', {}, { exists: true, chave }, { ...fold(configured), webhookUrl: 7 }, { exists: false, removidoEm: 5 }]) expect(WEBHOOK_SNAPSHOT.restore(json)).toBeUndefined();
  });

  it('configures, replaces, keeps an identical PUT, and removes', () => {
    spec.given([]).when(put('https://r.example/hook')).then(configured);
    spec.given(configured).when(put('https://r.example/other')).then((e) => expect(e).toMatchObject([{ data: { webhookUrl: 'https://r.example/other' } }]));
    spec.given(configured).when(put('https://r.example/hook')).then([]);
    spec.given(configured).when({ type: 'RemoverWebhook', chave, now, recebedorId: 'loja-a' }).then([{ type: 'WebhookRemovido', data: { chave, em: now.toISOString(), recebedorId: 'loja-a' } }]);
    spec.given([]).when({ type: 'RemoverWebhook', chave, now, recebedorId: 'loja-a' }).thenThrows('WebhookNaoEncontrado');
  });

  it("treats another receiver's registration as absent, and lets the key's new owner register its own", () => {
    spec.given(configured).when({ type: 'RemoverWebhook', chave, now, recebedorId: 'loja-b' }).thenThrows('WebhookNaoEncontrado');
    const state = configured.reduce(webhookDecider.evolve, webhookDecider.initialState);
    expect(webhookDoRecebedor(state, 'loja-b')).toEqual({ exists: false });
    expect(webhookDoRecebedor(state, 'loja-a')).toMatchObject({ exists: true, recebedorId: 'loja-a' });
    // The same URL by the key's new owner is a new registration, not a retry of the old one.
    spec
      .given(configured)
      .when(put('https://r.example/hook', { recebedorId: 'loja-b' }))
      .then((e) => expect(e).toMatchObject([{ type: 'WebhookConfigurado', data: { recebedorId: 'loja-b' } }]));
  });

  it.each<[string, WebhookCommand, string]>([
    ['a malformed key', put('https://r.example/hook', { chave: 'not-a-key' }), 'chave'],
    ['a key of another receiver', put('https://r.example/hook', { chave: '+5511999998888' }), 'chave'],
    ['a URL that is not one', put('not a url'), 'webhook.webhookUrl'],
    ['http in production', put('http://r.example/hook'), 'webhook.webhookUrl'],
    ['credentials in the URL', put('https://user:pw@r.example/hook'), 'webhook.webhookUrl'],
  ])('refuses %s with WebhookOperacaoInvalida', (_n, command, property) => {
    spec.given([]).when(command).thenThrows('WebhookOperacaoInvalida', [property]);
  });

  it('allows http when the policy does (local mode)', () => {
    spec.given([]).when(put('http://localhost:9999/hook', { politica: { permitirHttp: true } })).then((e) => expect(e).toHaveLength(1));
  });
});
