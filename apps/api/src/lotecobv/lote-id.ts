import { INT32_MAX, LOTE_ID_PATTERN } from '@pix/contracts';
import { DomainError } from '@pix/domain';

const NAO_ENCONTRADO = 'Lote de cobranças com vencimento não encontrado para o id informado.';

/**
 * The batch id is numeric text; "007" and "7" are the same batch (the contract answers an integer).
 *
 * `criacao` (PUT): only ids in 0..2147483647 are accepted, since `GET /cobv?loteCobVId=` is an
 * int32 in the contract and must be able to name every batch (ADR 0004). Reads and revisions
 * (GET, PATCH) only need the id well formed: a larger one names no batch of ours and is answered
 * `LoteCobVNaoEncontrado` by the lookup, while a batch an older version stored under one stays reachable.
 */
export function canonicalLoteId(id: string, use: 'criacao' | 'consulta'): string {
  const canonical = LOTE_ID_PATTERN.test(id) ? BigInt(id) : undefined;
  if (use === 'consulta') {
    if (canonical === undefined) throw new DomainError('LoteCobVNaoEncontrado', NAO_ENCONTRADO);
    return canonical.toString();
  }
  if (canonical !== undefined && canonical <= BigInt(INT32_MAX)) return canonical.toString();
  throw new DomainError('LoteCobVOperacaoInvalida', `O id do lote deve ser um número inteiro de 0 a ${INT32_MAX}.`, [
    { razao: `O parâmetro id não respeita o _schema_: informe um número inteiro de 0 a ${INT32_MAX}.`, propriedade: 'id', valor: id.slice(0, 100) },
  ]);
}
