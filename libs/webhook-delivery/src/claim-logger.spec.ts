import { scrubText } from '@pix/observability';
import { carried } from './claim-logger';

const e2e = (i: number) => `E12345678202611221015${String(i).padStart(11, '0')}`;
const body = (n: number) => JSON.stringify({ pix: Array.from({ length: n }, (_, i) => ({ endToEndId: e2e(i), txid: `tx${i}`, valor: '1.00', infoPagador: '"endToEndId":"forged"' })) });

describe('carried: what a delivery line names', () => {
  it('names the key and the endToEndId of a lone Pix', () => {
    expect(carried({ chave: 'k@example.com', body: body(1), items: ['a'] })).toBe(`chave k@example.com, endToEndId ${e2e(0)}`);
  });

  it('names the first three of a batch and how many more, never text from inside a field', () => {
    expect(carried({ chave: 'k', body: body(50), items: Array.from({ length: 50 }, String) })).toBe(`chave k, endToEndIds ${e2e(0)}, ${e2e(1)}, ${e2e(2)} and 47 more`);
    expect(carried({ chave: 'k', body: body(2), items: ['a', 'b'] })).toBe(`chave k, endToEndIds ${e2e(0)}, ${e2e(1)}`);
  });

  it('a CPF- or CNPJ-shaped key is still scrubbed by the logger, the endToEndIds are kept', () => {
    const line = scrubText(`webhook x attempt 1 to http://h/pix for ${carried({ chave: '52998224725', body: body(1), items: ['a'] })}: HTTP 500 in 3 ms`);
    expect(line).toBe(`webhook x attempt 1 to http://h/pix for chave [cpf], endToEndId ${e2e(0)}: HTTP 500 in 3 ms`);
    expect(scrubText(carried({ chave: '11222333000181', body: body(1), items: ['a'] }))).toBe(`chave [cnpj], endToEndId ${e2e(0)}`);
  });
});
