import { webhookUrlViolations } from './webhook-url';

const local = { permitirHttp: true };
const production = { permitirHttp: false };

describe('webhookUrlViolations', () => {
  it.each([
    'https://r.example/hook',
    'https://r.example',
    'https://R.Example:8443/a/b?x=1&y=%20',
    'HTTPS://r.example/',
    'https://r.example:443/hook',
    'http://localhost:3000/hook',
    'http://127.0.0.1:8080/h',
    'http://[::1]:8080/h',
    'https://xn--bcher-kva.example/h',
    'https://r.example/a%2Fb/%C3%A7',
    "https://r.example/a-b_c.d~e/!$&'()*+,;=:@/?q=a/b?c",
  ])('accepts %s', (url) => expect(webhookUrlViolations(url, local)).toEqual([]));

  it.each([
    ['CR/LF (header injection)', 'http://example.com/h\r\nX-Injected: 1'],
    ['a space', 'http://example.com/a b'],
    ['a leading space', ' http://example.com/'],
    ['a tab', 'http://example.com/\th'],
    ['NUL', 'http://example.com/\u0000'],
    ['DEL', 'http://example.com/\u007f'],
    ['a zero-width space', 'http://exa\u200bmple.com/'],
    ['a right-to-left override', 'http://example.com/\u202egpj.exe'],
    ['a BOM', '\ufeffhttp://example.com/'],
    ['non-breaking space', 'http://example.com/\u00a0'],
    ['a non-ASCII host', 'http://bücher.example/'],
    ['no host', 'http:///h'],
    ['an empty host with a port', 'http://:80/h'],
    ['port 0', 'http://example.com:0/h'],
    ['port above 65535', 'http://example.com:65536/h'],
    ['an empty port', 'http://example.com:/h'],
    ['a port with a leading zero', 'http://example.com:080/h'],
    ['backslashes', 'http:\\\\example.com\\h'],
    ['a backslash before @', 'http://example.com\\@evil.example/'],
    ['user info', 'http://user:pw@example.com/'],
    ['user info without a password', 'http://user@example.com/'],
    ['a fragment', 'http://example.com/h#x'],
    ['not absolute', '/hook'],
    ['no slashes after the scheme', 'http:example.com/h'],
    ['another scheme', 'ftp://example.com/h'],
    ['javascript:', 'javascript://example.com/%0aalert(1)'],
    ['an octal IPv4 the parser rewrites', 'http://010.0.0.1/h'],
    ['a hex IPv4 the parser rewrites', 'http://0x7f000001/h'],
    ['an IPv6 the parser compresses', 'http://[0:0:0:0:0:0:0:1]/h'],
    ['dot segments the parser removes', 'http://example.com/a/../b'],
    ['characters the parser percent-encodes', 'http://example.com/a"b'],
    ['a % that starts no escape', 'https://example.com/%zz'],
    ['a % at the end', 'https://example.com/a%'],
    ['a % in the query', 'https://example.com/a?x=%2'],
    ['a | the parser keeps', 'https://example.com/a|b'],
    ['a ^ the parser keeps', 'https://example.com/a?b=^'],
  ])('refuses %s', (_label, url) => {
    const violations = webhookUrlViolations(url, local);
    expect(violations).toHaveLength(1);
    expect(violations[0].propriedade).toBe('webhook.webhookUrl');
    expect(violations[0].valor).toMatch(/^[\x20-\x7e]*$/);
  });

  it('refuses http in production, accepts https', () => {
    expect(webhookUrlViolations('http://r.example/hook', production)).toHaveLength(1);
    expect(webhookUrlViolations('https://r.example/hook', production)).toEqual([]);
  });
});
