/**
 * Fastify's own client errors (body parsing, size, media type) told in the contract's language.
 * Both apps use it, so a 413 or a broken JSON body reads the same from the API and the notifier;
 * undefined for anything else.
 */
export function fastifyClientErrorDetail(error: unknown, status: number): string | undefined {
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : '';
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'O corpo da requisição excede o tamanho máximo permitido.';
  if (status === 415 || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Content-Type não suportado: envie application/json.';
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /empty/i.test(message)) return 'O corpo da requisição está vazio.';
  if (/prototype/i.test(message)) return 'O corpo da requisição contém propriedades proibidas (__proto__ ou constructor).';
  if (error instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(message)) return 'O corpo da requisição não é um JSON válido.';
  return undefined;
}
