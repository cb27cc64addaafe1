import { charsetRefusal, foreignCharset } from './charset';

describe('foreignCharset', () => {
  it.each([undefined, 'application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'Application/JSON ; Charset = "Utf-8" ', 'application/json; profile="a;charset=latin1"'])(
    'accepts %j (no charset, or UTF-8 however written)',
    (contentType) => expect(foreignCharset(contentType)).toBeUndefined(),
  );

  it.each([
    ['application/json; charset=iso-8859-1', 'iso-8859-1'],
    ['application/json;charset=UTF-16', 'UTF-16'],
    ['application/json; charset="latin1"', 'latin1'],
    ['application/json; CHARSET=utf8', 'utf8'],
    ['application/json; charset=utf-8; charset=iso-8859-1', 'iso-8859-1'],
    ['application/json; x=1; charset="utf\\-16"', 'utf-16'],
    ['application/json; charset=', ''],
    ['application/x-www-form-urlencoded; charset=windows-1252', 'windows-1252'],
  ])('refuses %j', (contentType, charset) => expect(foreignCharset(contentType)).toBe(charset));

  it('refuses a parameter list whose quoted string never ends (it could hide a charset)', () => {
    expect(foreignCharset('application/json; x="a; charset=latin1')).toBeDefined();
  });

  it('is a 415 RequisicaoInvalida problem', () => {
    expect(charsetRefusal('application/json; charset=utf-16')?.toProblema('c')).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', status: 415 });
    expect(charsetRefusal('application/json; charset=utf-8')).toBeUndefined();
  });
});
