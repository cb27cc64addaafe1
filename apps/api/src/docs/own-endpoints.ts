/** Endpoints of this server that the official contract does not describe (tag "Operação"). */

const TAG = ['Operação'];
const json = (schema: object, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problema' } } } });
const obj = (properties: Record<string, object>, required: string[] = []) => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const int = { type: 'integer' };
const operatorSecurity = [{ operatorToken: [] }];
const op = (summary: string, responses: Record<string, object>, extra: object = {}) => ({ tags: TAG, summary, security: [], responses, ...extra });
const file = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: 'string' } } } });

export const OWN_SCHEMAS = {
  EstatisticasNotificacoes: obj(
    { pending: int, dead: int, inFlight: int, oldestPendingAgeMs: { type: 'integer', nullable: true, description: 'Idade da notificação pendente mais antiga; alerte sobre ela.' } },
    ['pending', 'dead', 'inFlight', 'oldestPendingAgeMs'],
  ),
  Notificacao: obj({ id: str('Id da notificação (o mesmo em retentativas e reenvios: header webhook-id).'), endToEndId: str(), txid: str(), status: str('pending, delivered, dead ou cancelled.') }),
};

const healthBody = obj({ status: str('ok; degraded (Kafka fora ou um grupo preso ao entrar: só a liquidação espera, o HTTP é servido); unavailable; shutting down.') }, ['status']);

/** Keyed by the path as served (the base path already applied). */
export const OWN_ENDPOINTS = (basePath: string): Record<string, Record<string, object>> => ({
  '/oauth/token': {
    post: op('Token de acesso OAuth 2.0 (client credentials; HTTP Basic ou client_id/client_secret no corpo)', {
      200: json(obj({ access_token: str(), token_type: str('Bearer'), expires_in: int, scope: str() }, ['access_token', 'token_type', 'expires_in'])),
      400: json(obj({ error: str(), error_description: str() }, ['error']), 'Pedido inválido (RFC 6749 §5.2)'),
      401: json(obj({ error: str(), error_description: str() }, ['error']), 'Cliente desconhecido ou segredo incorreto'),
    }, {
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: obj({ grant_type: { type: 'string', enum: ['client_credentials'] }, scope: str(), client_id: str(), client_secret: str() }, ['grant_type']) } } },
    }),
  },
  '/health': { get: op('Prontidão (alias de /health/ready)', { 200: json(healthBody), 503: json(healthBody, 'O banco de dados está fora, um read model assíncrono atrasado além do limite, ou a instância está parando') }) },
  '/health/ready': { get: op('Prontidão: o banco de dados decide; event store, cluster e grupos Kafka informados', { 200: json(healthBody), 503: json(healthBody, 'O banco de dados está fora, um read model assíncrono atrasado além do limite, ou a instância está parando') }) },
  '/health/live': { get: op('Vivacidade: o processo responde', { 200: json(healthBody) }) },
  '/metrics': {
    get: op('Métricas no formato texto do Prometheus (em produção: Authorization: Bearer <METRICS_TOKEN>)', {
      200: file('text/plain', 'Séries do Prometheus'),
      401: problem('Token ausente ou incorreto'),
      403: problem('Métricas desligadas: defina METRICS_TOKEN'),
    }),
  },
  '/openapi.json': { get: op('Este documento (JSON)', { 200: json({ type: 'object' }) }) },
  '/openapi.yaml': { get: op('Este documento (YAML)', { 200: file('application/yaml', 'OpenAPI 3') }) },
  '/docs': { get: op('Esta documentação (Swagger UI, servida localmente)', { 200: file('text/html', 'Página') }) },
  '/docs/{file}': {
    get: op('Arquivos da Swagger UI', { 200: file('application/octet-stream', 'Arquivo'), 404: problem('Arquivo desconhecido') }, { parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }] }),
  },
  [`${basePath}/cobv/{txid}/qrcode`]: {
    get: {
      tags: TAG,
      summary: 'BR Code (copia e cola) e imagem PNG do QR code da cobrança (escopo cobv.read)',
      security: [{ OAuth2: ['cobv.read'] }],
      parameters: [{ name: 'txid', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$' } }],
      responses: { 200: json(obj({ qrcode: str('BR Code'), imagemQrcode: str('PNG em data URL') }, ['qrcode', 'imagemQrcode'])), 400: problem('Cobrança sem QR Code: não está ATIVA, ou não tem location'), 404: problem('Cobrança não encontrada') },
    },
  },
  '/qr/v2/jwks': { get: op('JWKS das chaves que assinam os payload locations (jku do JWS)', { 200: json(obj({ keys: { type: 'array', items: { type: 'object' } } }, ['keys'])) }) },
  '/sandbox': { get: op('Painel do sandbox (modo local)', { 200: file('text/html', 'Página') }) },
  '/sandbox/app.js': { get: op('Script do painel do sandbox', { 200: file('text/javascript', 'Script') }) },
  '/sandbox/style.css': { get: op('Estilo do painel do sandbox', { 200: file('text/css', 'Folha de estilo') }) },
  '/sandbox/session': { get: op('Sessão do painel do sandbox (cliente e token locais)', { 200: json({ type: 'object' }) }) },
  '/sandbox/cash-in': {
    post: op('Pagador simulado (modo local): paga uma cobrança pelo txid ou BR Code, ou um Pix avulso para uma chave', { 202: json({ type: 'object' }, 'Pix recebido'), 400: problem('Pedido inválido') }, {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: obj({ txid: str(), pixCopiaECola: str(), data: { type: 'string', format: 'date' }, chave: str(), valor: str(), infoPagador: str(), endToEndId: str() }) } },
      },
    }),
  },
  '/notifier/stats': { get: { tags: TAG, summary: 'Notificações pendentes, mortas, em voo e a idade da mais antiga', security: operatorSecurity, responses: { 200: json({ $ref: '#/components/schemas/EstatisticasNotificacoes' }) } } },
  '/notifier/notifications': {
    get: {
      tags: TAG,
      summary: 'Notificações mais recentes, com suas tentativas; filtro por status, páginas por cursor (proximo → before)',
      security: operatorSecurity,
      parameters: [
        { name: 'status', in: 'query', schema: { type: 'string', enum: ['pending', 'delivered', 'dead', 'cancelled'] } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
        { name: 'before', in: 'query', schema: { type: 'string' }, description: 'o proximo da página anterior, ou um instante RFC 3339' },
      ],
      responses: {
        200: json(obj({ notificacoes: { type: 'array', items: { $ref: '#/components/schemas/Notificacao' } }, proximo: { type: 'string', nullable: true } })),
        400: problem('Parâmetro desconhecido, repetido ou inválido'),
      },
    },
  },
  '/notifier/notifications/{id}': {
    get: {
      tags: TAG,
      summary: 'Uma notificação e suas tentativas',
      security: operatorSecurity,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      responses: { 200: json({ $ref: '#/components/schemas/Notificacao' }), 404: problem('Notificação não encontrada') },
    },
  },
  '/notifier/resend': {
    post: {
      tags: TAG,
      summary: 'Reenvia notificações entregues, mortas ou canceladas (mesmo id)',
      security: operatorSecurity,
      requestBody: { required: true, content: { 'application/json': { schema: obj({ ids: { type: 'array', items: str() }, endToEndIds: { type: 'array', items: str() }, status: { type: 'string', enum: ['pending', 'delivered', 'dead', 'cancelled'] }, inicio: { type: 'string', format: 'date-time' }, fim: { type: 'string', format: 'date-time' } }) } } },
      responses: { 202: json(obj({ reenviadas: int })), 400: problem('Pedido inválido') },
    },
  },
});
