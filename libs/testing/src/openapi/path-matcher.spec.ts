import { loadOfficialSpec, PathMatcher } from './index';

const matcher = new PathMatcher(loadOfficialSpec());
const templateOf = (method: string, path: string, server?: 'api' | 'location') => {
  const found = matcher.match(method, path, server);
  return found.kind === 'operation' ? found.match.template : found.kind;
};

describe('PathMatcher', () => {
  it('tells a collection from an item and from a batch', () => {
    expect(templateOf('GET', '/cobv')).toBe('/cobv');
    expect(templateOf('GET', '/cobv/7978c0c97ea847e78e8849634473c1f1')).toBe('/cobv/{txid}');
    expect(templateOf('PUT', '/lotecobv/123')).toBe('/lotecobv/{id}');
    expect(templateOf('GET', '/lotecobv')).toBe('/lotecobv');
  });

  it('prefers literal segments over templated ones', () => {
    expect(templateOf('DELETE', '/loc/12/txid')).toBe('/loc/{id}/txid');
    expect(templateOf('GET', '/webhook')).toBe('/webhook');
    expect(templateOf('GET', '/webhookrec')).toBe('/webhookrec');
  });

  it('ignores the query string and rejects empty or unknown segments', () => {
    expect(templateOf('GET', '/cobv?inicio=2020-01-01T00:00:00Z&fim=2020-12-01T00:00:00Z')).toBe('/cobv');
    expect(templateOf('GET', '/cobv/')).toBe('path-not-documented');
    expect(templateOf('GET', '/cobv/a/b')).toBe('path-not-documented');
    expect(templateOf('GET', '/qualquer')).toBe('path-not-documented');
  });

  it('reports a path whose method is not documented', () => {
    expect(matcher.match('DELETE', '/cobv/abc')).toEqual({
      kind: 'method-not-documented',
      template: '/cobv/{txid}',
      methods: ['GET', 'PUT', 'PATCH'],
    });
  });

  it('keeps payload locations, which have their own server, apart from the API', () => {
    expect(templateOf('GET', '/cobv/abc', 'location')).toBe('/cobv/{pixUrlAccessToken}');
    expect(templateOf('GET', '/abc', 'location')).toBe('/{pixUrlAccessToken}');
    expect(templateOf('GET', '/cob/abc', 'location')).toBe('path-not-documented');
  });
});
