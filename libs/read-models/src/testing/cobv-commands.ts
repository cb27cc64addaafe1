import type { CobVCommand, Recebedor } from '@pix/domain';

/** A receiver of the read-model integration tests (`id` as given). */
export const testRecebedor = (id: string): Recebedor => ({ id, nome: 'Loja', cnpj: '11222333000181', logradouro: 'Rua A', cidade: 'Recife', uf: 'PE', cep: '50000000', chaves: ['+5581999990000'] });

/** A valid create-or-alter command of a due charge, for tests that write charges through the decider. */
export function cobvCommand(recebedor: Recebedor, txid: string, over: { original?: string; loc?: { id: number; location: string } } = {}): CobVCommand {
  return {
    type: 'CriarOuAlterarCobV',
    txid,
    now: new Date(),
    recebedor,
    novaLocation: over.loc ?? { id: 1, location: `https://h/qr/v2/cobv/${txid}` },
    input: { calendario: { dataDeVencimento: '2099-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: over.original ?? '10.00' }, chave: '+5581999990000' },
  };
}
