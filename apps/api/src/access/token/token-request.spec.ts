import { OAuthError } from './oauth-error';
import { parseForm, readTokenRequest } from './token-request';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
const refusal = (body: unknown, authorization?: string) => {
  try {
    readTokenRequest(body, authorization);
  } catch (e) {
    return (e as OAuthError).error;
  }
  return undefined;
};

describe('token request', () => {
  it('reads form-encoded Basic credentials (RFC 6749 §2.3.1) and body credentials', () => {
    expect(readTokenRequest({ grant_type: 'client_credentials' }, basic('erp%3A1:s%2Bcr+t'))).toEqual({ grantType: 'client_credentials', clientId: 'erp:1', clientSecret: 's+cr t', scope: undefined });
    expect(readTokenRequest(parseForm('grant_type=client_credentials&client_id=a&client_secret=b&scope=cobv.read+pix.read'), undefined)).toEqual({ grantType: 'client_credentials', clientId: 'a', clientSecret: 'b', scope: 'cobv.read pix.read' });
  });

  it('collects a repeated parameter (all of them, in order) and refuses the repeat', () => {
    const form = parseForm(Array.from({ length: 5_000 }, (_, i) => `a=${i}`).join('&') + '&grant_type=client_credentials');
    expect(form.a).toEqual(Array.from({ length: 5_000 }, (_, i) => String(i)));
    expect(refusal({ ...form, a: undefined, grant_type: ['client_credentials', 'x'] }, basic('a:b'))).toBe('invalid_request');
  });

  it('keeps "__proto__" a plain form key', () => {
    const form = parseForm('__proto__=x&grant_type=client_credentials');
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
    expect(form.__proto__).toBe('x');
  });

  it.each<[string, unknown, string | undefined, string]>([
    ['no grant_type', {}, basic('a:b'), 'invalid_request'],
    ['a repeated parameter', parseForm('grant_type=client_credentials&grant_type=x'), basic('a:b'), 'invalid_request'],
    ['a non-text parameter (JSON)', { grant_type: 'client_credentials', scope: ['cobv.read'] }, basic('a:b'), 'invalid_request'],
    ['a JSON array body', [], basic('a:b'), 'invalid_request'],
    ['two authentication methods', { grant_type: 'client_credentials', client_secret: 'b' }, basic('a:b'), 'invalid_request'],
    ['a Basic header without a colon', { grant_type: 'client_credentials' }, basic('ab'), 'invalid_client'],
    ['another scheme', { grant_type: 'client_credentials' }, 'Bearer x', 'invalid_client'],
    ['no credentials', { grant_type: 'client_credentials' }, undefined, 'invalid_client'],
    ['a scope with double spaces', { grant_type: 'client_credentials', scope: 'cobv.read  pix.read' }, basic('a:b'), 'invalid_scope'],
  ])('refuses %s', (_name, body, authorization, error) => {
    expect(refusal(body, authorization)).toBe(error);
  });
});
