import { cnpjWithCheckDigits, cpfWithCheckDigits, isValidCnpj, isValidCpf } from './documents';

describe('isValidCpf', () => {
  it.each([['52998224725'], ['11144477735'], ['12345678909'], ['00000000191']])('accepts %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ['52998224724', 'wrong second check digit'],
    ['52998224715', 'wrong first check digit'],
    ['11111111111', 'one repeated digit'],
    ['00000000000', 'all zeros'],
    ['99999999999', 'all nines'],
    ['529.982.247-25', 'punctuation'],
    ['5299822472', 'ten digits'],
    ['529982247250', 'twelve digits'],
    ['5299822472A', 'a letter'],
    ['', 'empty'],
  ])('rejects %s (%s)', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it('rejects non-strings without throwing', () => {
    expect(isValidCpf(52998224725 as unknown as string)).toBe(false);
  });
});

describe('cpfWithCheckDigits', () => {
  it('appends the check digits', () => {
    expect(cpfWithCheckDigits('529982247')).toBe('52998224725');
    expect(cpfWithCheckDigits('111444777')).toBe('11144477735');
  });

  it('generates CPFs that validate', () => {
    for (let i = 0; i < 500; i++) {
      const base = String((i * 7_919_191 + 12_345) % 1_000_000_000).padStart(9, '0');
      if (/^(.)\1*$/.test(base)) continue;
      expect(isValidCpf(cpfWithCheckDigits(base))).toBe(true);
    }
  });

  it.each([['12345678'], ['1234567890'], ['12345678a'], ['']])('refuses the base %j', (base) => {
    expect(() => cpfWithCheckDigits(base)).toThrow(RangeError);
  });
});

describe('isValidCnpj', () => {
  it.each([
    ['11222333000181'],
    ['11444777000161'],
    ['00000000000191'],
    ['60701190000104'],
  ])('accepts the numeric CNPJ %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it('accepts the Receita Federal alphanumeric example 12ABC34501DE35', () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
  });

  it.each([
    ['11222333000182', 'wrong second check digit'],
    ['11222333000191', 'wrong first check digit'],
    ['12ABC34501DE36', 'alphanumeric with a wrong check digit'],
    ['12ABC34501DE45', 'alphanumeric with a wrong first check digit'],
    ['12abc34501de35', 'lowercase letters'],
    ['12ABC34501De35', 'one lowercase letter'],
    ['12ABC34501DEAB', 'letters in the check-digit positions'],
    ['12ABC34501D3E5', 'a letter in the last position'],
    ['12ABC34501DE3', 'thirteen chars'],
    ['12ABC34501DE355', 'fifteen chars'],
    ['00000000000000', 'all zeros (arithmetically fine, never issued)'],
    ['11111111111111', 'one repeated digit'],
    ['11.222.333/0001-81', 'punctuation'],
    ['12ABC-34501DE35', 'a dash'],
    ['12ABÇ34501DE35', 'a non-ASCII letter'],
    ['', 'empty'],
  ])('rejects %s (%s)', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });
});

describe('cnpjWithCheckDigits', () => {
  it('reproduces the check digits of known CNPJs', () => {
    expect(cnpjWithCheckDigits('112223330001')).toBe('11222333000181');
    expect(cnpjWithCheckDigits('12ABC34501DE')).toBe('12ABC34501DE35');
  });

  it('values letters as ASCII code minus 48 (A = 17)', () => {
    // '0' is worth 0, 'A' 17: a base holding only 'A' in the last position weighs 17 * 2 = 34 → 34 % 11 = 1 → 0.
    expect(cnpjWithCheckDigits('00000000000A').slice(12, 13)).toBe('0');
    // 'Z' = 42 in the last position: 84 % 11 = 7 → 11 − 7 = 4.
    expect(cnpjWithCheckDigits('00000000000Z').slice(12, 13)).toBe('4');
  });

  it('generates numeric and alphanumeric CNPJs that validate', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let i = 0; i < 500; i++) {
      let base = '';
      for (let j = 0; j < 12; j++) base += alphabet[(i * 31 + j * 17 + i * j) % (i % 2 ? 10 : 36)];
      if (/^(.)\1*$/.test(base)) continue;
      const cnpj = cnpjWithCheckDigits(base);
      expect(cnpj).toMatch(/^[0-9A-Z]{12}\d{2}$/);
      expect(isValidCnpj(cnpj)).toBe(true);
    }
  });

  it.each([['12abc34501de'], ['12ABC34501D'], ['12ABC34501DEF'], ['12ABC-4501DE']])('refuses the base %j', (base) => {
    expect(() => cnpjWithCheckDigits(base)).toThrow(RangeError);
  });
});
