import { LOTE_ID_PATTERN } from '@pix/contracts';
import { DomainError } from '@pix/domain';

/** The batch id is numeric text; "007" and "7" are the same batch (the contract answers an integer). */
export function canonicalLoteId(id: string, onInvalid: 'operacao' | 'naoEncontrado'): string {
  if (LOTE_ID_PATTERN.test(id)) return BigInt(id).toString();
  if (onInvalid === 'naoEncontrado') throw new DomainError('LoteCobVNaoEncontrado', 'Lote de cobranças com vencimento não encontrado para o id informado.');
  throw new DomainError('LoteCobVOperacaoInvalida', 'O id do lote deve ser numérico (até 15 dígitos).', [
    { razao: 'O parâmetro id não respeita o _schema_: informe um número inteiro.', propriedade: 'id', valor: id.slice(0, 100) },
  ]);
}
