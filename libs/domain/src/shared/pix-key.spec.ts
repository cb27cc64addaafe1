import { isValidPixKey, PIX_KEY_MAX_LENGTH, pixKeyType } from './pix-key';

describe('pixKeyType', () => {
  it.each([
    ['52998224725', 'cpf'],
    ['11222333000181', 'cnpj'],
    ['12ABC34501DE35', 'cnpj'],
    ['+5511987654321', 'telefone'],
    ['+551133334444', 'telefone'],
    ['+14155552671', 'telefone'],
    ['+44', 'telefone'],
    ['fulano@example.com', 'email'],
    ['fulano.de_tal+pix@sub.example.com.br', 'email'],
    ['123e4567-e12b-12d1-a456-426655440000', 'evp'],
    ['00000000-0000-0000-0000-000000000000', 'evp'],
  ])('classifies %s as %s', (key, type) => {
    expect(pixKeyType(key)).toBe(type);
    expect(isValidPixKey(key)).toBe(true);
  });

  it.each([
    ['52998224724', '11 digits failing the CPF check are not a phone without "+"'],
    ['11987654321', 'a Brazilian mobile without "+" is not a phone key'],
    ['11111111111', 'repeated-digit CPF'],
    ['11222333000182', '14 digits failing the CNPJ check'],
    ['12abc34501de35', 'lowercase alphanumeric CNPJ'],
    ['529.982.247-25', 'formatted CPF'],
    ['5511987654321', 'phone without "+"'],
    ['+0511987654321', 'E.164 cannot start with 0'],
    ['+5511987654321000', 'more than 15 digits'],
    ['+55 11 98765-4321', 'formatted phone'],
    ['+5', 'too short a phone'],
    ['Fulano@example.com', 'uppercase e-mail'],
    ['fulano@EXAMPLE.com', 'uppercase e-mail domain'],
    ['fulano.example.com', 'no @'],
    ['fulano@', 'no domain'],
    ['@example.com', 'no local part'],
    ['fulano@-example.com', 'domain label starting with "-"'],
    ['ful ano@example.com', 'space'],
    ['123E4567-E12B-12D1-A456-426655440000', 'uppercase UUID'],
    ['123e4567e12b12d1a456426655440000', 'UUID without dashes'],
    ['123e4567-e12b-12d1-a456-42665544000', 'short UUID'],
    ['', 'empty'],
  ])('rejects %s (%s)', (key) => {
    expect(pixKeyType(key)).toBeNull();
    expect(isValidPixKey(key)).toBe(false);
  });

  it('limits keys (and so e-mails) to 77 chars', () => {
    const domain = '@example.com';
    const atLimit = 'a'.repeat(PIX_KEY_MAX_LENGTH - domain.length) + domain;
    expect(atLimit).toHaveLength(77);
    expect(pixKeyType(atLimit)).toBe('email');
    expect(pixKeyType('a' + atLimit)).toBeNull();
  });

  it('returns null for non-strings', () => {
    expect(pixKeyType(undefined as unknown as string)).toBeNull();
    expect(pixKeyType(52998224725 as unknown as string)).toBeNull();
  });
});
