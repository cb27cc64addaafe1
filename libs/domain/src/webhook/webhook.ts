import { DomainError, type Violation } from '../errors';
import { pixKeyType } from '../shared';
import { webhookUrlViolations, type PoliticaWebhook } from './webhook-url';

export type { PoliticaWebhook } from './webhook-url';

/**
 * Events of the stream `webhook-{chave}`. A key belongs to one receiver at a time, so the key
 * alone names the stream; the events say whose registration it is.
 */
export type WebhookEvent =
  | { type: 'WebhookConfigurado'; data: { chave: string; webhookUrl: string; criacao: string; recebedorId: string } }
  | { type: 'WebhookRemovido'; data: { chave: string; em: string; recebedorId: string } };


export type WebhookCommand =
  | { type: 'ConfigurarWebhook'; chave: string; webhookUrl: string; now: Date; recebedorId: string; chavesDoRecebedor: string[]; politica: PoliticaWebhook }
  | { type: 'RemoverWebhook'; chave: string; now: Date; recebedorId: string };

export type WebhookState =
  | {
      exists: false;
      /** When the key's last registration was removed, if it ever had one. */
      removidoEm?: string;
    }
  | {
      exists: true;
      chave: string;
      webhookUrl: string;
      criacao: string;
      recebedorId: string;
      /**
       * When an earlier registration of the key was last removed (none: never): a notification
       * stored before then must not reach this one, since a DELETE stops everything not yet sent
       * (ADR 7). A new URL without a removal keeps it.
       */
      removidoEm?: string;
    };

export const webhookStreamId = (chave: string) => `webhook-${chave}`;

const invalid = (violacoes: Violation[]) =>
  new DomainError('WebhookOperacaoInvalida', 'A requisição que busca configurar o webhook não respeita o _schema_ ou está semanticamente errada.', violacoes);

export const webhookDecider = {
  initialState: { exists: false } as WebhookState,
  decide(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
    const em = command.now.toISOString();
    if (command.type === 'RemoverWebhook') {
      // Another receiver's registration is, to this one, no registration at all.
      if (!webhookDoRecebedor(state, command.recebedorId).exists) throw new DomainError('WebhookNaoEncontrado', `Não há webhook configurado para a chave ${command.chave}.`);
      return [{ type: 'WebhookRemovido', data: { chave: command.chave, em, recebedorId: command.recebedorId } }];
    }
    const violacoes = [...keyViolations(command.chave, command.chavesDoRecebedor), ...webhookUrlViolations(command.webhookUrl, command.politica)];
    if (violacoes.length > 0) throw invalid(violacoes);
    // The same URL again (a retried PUT) keeps the registration as it is.
    if (state.exists && state.webhookUrl === command.webhookUrl && state.recebedorId === command.recebedorId) return [];
    return [{ type: 'WebhookConfigurado', data: { chave: command.chave, webhookUrl: command.webhookUrl, criacao: em, recebedorId: command.recebedorId } }];
  },
  evolve(state: WebhookState, event: WebhookEvent): WebhookState {
    if (event.type === 'WebhookRemovido') return { exists: false, removidoEm: event.data.em };
    return { exists: true, ...event.data, ...(state.removidoEm !== undefined ? { removidoEm: state.removidoEm } : {}) };
  },
};

/**
 * Snapshots of a key's webhook stream (ADR 7): every PUT that changes the URL and every DELETE
 * adds an event, every intake and delivery for the key reads the stream, and a tenant alternating
 * two URLs at its rate limit would make each of those reads fold hundreds of thousands of events.
 * A read folds the snapshot and at most `every` more. Bump the version when the state's shape changes.
 */
export const WEBHOOK_SNAPSHOT = {
  version: 'webhook-state-1',
  every: 100,
  restore: (json: unknown): WebhookState | undefined => (isWebhookState(json) ? json : undefined),
};

function isWebhookState(json: unknown): json is WebhookState {
  if (typeof json !== 'object' || json === null) return false;
  const s: Partial<Record<'exists' | 'chave' | 'webhookUrl' | 'criacao' | 'recebedorId' | 'removidoEm', unknown>> = json;
  const removido = s.removidoEm === undefined || typeof s.removidoEm === 'string';
  if (s.exists === false) return removido;
  return s.exists === true && typeof s.chave === 'string' && typeof s.webhookUrl === 'string' && typeof s.criacao === 'string' && typeof s.recebedorId === 'string' && removido;
}

/** The registration as `recebedorId` may see it: its own, or none (never another receiver's). */
export function webhookDoRecebedor(state: WebhookState, recebedorId: string): WebhookState {
  return state.exists && state.recebedorId === recebedorId ? state : { exists: false };
}

function keyViolations(chave: string, chavesDoRecebedor: string[]): Violation[] {
  if (pixKeyType(chave) === null) return [{ razao: 'A chave não respeita o formato de nenhum tipo de chave DICT (CPF, CNPJ, e-mail, telefone ou EVP).', propriedade: 'chave', valor: chave.slice(0, 77) }];
  if (!chavesDoRecebedor.includes(chave)) return [{ razao: 'A chave não pertence a este usuário recebedor.', propriedade: 'chave', valor: chave }];
  return [];
}
