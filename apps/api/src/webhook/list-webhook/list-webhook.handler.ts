import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { echoTimestamp, parseCobVListQuery, paginacao } from '@pix/contracts';
import { DomainError } from '@pix/domain';
import { listWebhooks } from '@pix/read-models';
import { READ_DB } from '../../infrastructure/tokens';
import { ListWebhookQuery } from './list-webhook.query';

const PARAMETERS = ['inicio', 'fim', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];

@QueryHandler(ListWebhookQuery)
export class ListWebhookHandler implements IQueryHandler<ListWebhookQuery> {
  constructor(@Inject(READ_DB) private readonly db: Pool) {}

  async execute({ recebedor, query }: ListWebhookQuery) {
    // inicio and fim are optional here: an absent one spans every instant the listing states.
    const { value: f, violacoes } = parseCobVListQuery(Object.fromEntries(PARAMETERS.map((p) => [p, query[p]])), { boundsOptional: true });
    if (!f) throw new DomainError('WebhookConsultaInvalida', 'Os parâmetros de consulta não respeitam o _schema_ ou não fazem sentido semanticamente.', violacoes);
    const { rows, total } = await listWebhooks(this.db, recebedor.id, f);
    return {
      parametros: {
        ...(query.inicio ? { inicio: echoTimestamp(f.inicio) } : {}),
        ...(query.fim ? { fim: echoTimestamp(f.fim) } : {}),
        paginacao: paginacao(f.paginaAtual, f.itensPorPagina, total),
      },
      webhooks: rows.map((r) => ({ webhookUrl: r.webhookUrl, chave: r.chave, criacao: r.criacao })),
    };
  }
}
