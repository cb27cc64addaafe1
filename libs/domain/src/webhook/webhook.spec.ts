import { webhookDecider, type WebhookCommand, type WebhookEvent } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(webhookDecider);
const now = new Date('2026-11-22T12:00:00.123Z');
const chave = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';
const put = (webhookUrl: string, over: Partial<Extract<WebhookCommand, { type: 'ConfigurarWebhook' }>> = {}): WebhookCommand => ({
  type: 'ConfigurarWebhook',
  chave,
  webhookUrl,
  now,
  chavesDoRecebedor: [chave],
  politica: { permitirHttp: false },
  ...over,
});
const configured: WebhookEvent[] = [{ type: 'WebhookConfigurado', data: { chave, webhookUrl: 'https://r.example/hook', criacao: now.toISOString() } }];

describe('webhook decider', () => {
  it('configures, replaces, keeps an identical PUT, and removes', () => {
    spec.given([]).when(put('https://r.example/hook')).then(configured);
    spec.given(configured).when(put('https://r.example/other')).then((e) => expect(e).toMatchObject([{ data: { webhookUrl: 'https://r.example/other' } }]));
    spec.given(configured).when(put('https://r.example/hook')).then([]);
    spec.given(configured).when({ type: 'RemoverWebhook', chave, now }).then([{ type: 'WebhookRemovido', data: { chave, em: now.toISOString() } }]);
    spec.given([]).when({ type: 'RemoverWebhook', chave, now }).thenThrows('WebhookNaoEncontrado');
  });

  it.each<[string, WebhookCommand, string]>([
    ['a malformed key', put('https://r.example/hook', { chave: 'not-a-key' }), 'chave'],
    ['a key of another receiver', put('https://r.example/hook', { chave: '+5511999998888' }), 'chave'],
    ['a URL that is not one', put('not a url'), 'webhookUrl'],
    ['http in production', put('http://r.example/hook'), 'webhookUrl'],
    ['credentials in the URL', put('https://user:pw@r.example/hook'), 'webhookUrl'],
  ])('refuses %s with WebhookOperacaoInvalida', (_n, command, property) => {
    spec.given([]).when(command).thenThrows('WebhookOperacaoInvalida', [property]);
  });

  it('allows http when the policy does (local mode)', () => {
    spec.given([]).when(put('http://localhost:9999/hook', { politica: { permitirHttp: true } })).then((e) => expect(e).toHaveLength(1));
  });
});
