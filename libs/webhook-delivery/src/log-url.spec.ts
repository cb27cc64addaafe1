import { urlForLog } from './log-url';

describe('urlForLog', () => {
  it('keeps scheme, host, port and path', () => {
    expect(urlForLog('https://hooks.example.com:8443/a/b/pix')).toBe('https://hooks.example.com:8443/a/b/pix');
  });
  it('drops the query (with the /pix appended after it), the fragment and userinfo, marking that a query was there', () => {
    expect(urlForLog('https://127.0.0.1:18490/status500?tok=QSECRETQ/pix')).toBe('https://127.0.0.1:18490/status500?…');
    expect(urlForLog('https://user:pw@hooks.example.com/x#frag')).toBe('https://hooks.example.com/x#…');
  });
  it('never echoes a URL it cannot parse', () => {
    expect(urlForLog('not a url ?tok=QSECRETQ')).toBe('(invalid url)');
  });
});
