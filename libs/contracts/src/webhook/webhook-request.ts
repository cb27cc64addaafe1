import { Violacao } from '../problem';
import { ownMember, unknownMemberViolations } from '../validation/own-members';

/** Body of PUT /webhook/{chave}: `{ "webhookUrl": "<uri>" }` and nothing else. */
export function parseWebhookBody(body: unknown): { value?: { webhookUrl: string }; violacoes: Violacao[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { violacoes: [{ razao: 'O corpo da requisição deve ser um objeto com webhookUrl.', propriedade: 'webhook' }] };
  const webhookUrl = ownMember(body, 'webhookUrl');
  const violacoes: Violacao[] = unknownMemberViolations(body, ['webhookUrl'], 'webhook');
  if (typeof webhookUrl !== 'string' || webhookUrl.length === 0 || webhookUrl.length > 2048)
    violacoes.push({ razao: 'O campo webhookUrl não respeita o _schema_.', propriedade: 'webhook.webhookUrl', ...(webhookUrl === undefined ? {} : { valor: String(webhookUrl).slice(0, 200) }) });
  return violacoes.length > 0 ? { violacoes } : { value: { webhookUrl: webhookUrl as string }, violacoes };
}
