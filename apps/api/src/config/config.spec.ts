import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('starts in local mode with the documented sandbox receiver', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ mode: 'local', port: 8080, basePath: '/v2', dataDir: './data' });
    expect(c.recebedor).toMatchObject({ cnpj: '56989000019563', chaves: ['5f84a4c5-c5cb-4599-9f13-7eb4d419dacc'] });
  });

  it('reports every bad value at once, with a message each', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ MODE: 'production', PORT: 'eighty', RECEIVER_CNPJ: '11222333000180', RECEIVER_PIX_KEYS: 'nope', LOG_LEVEL: 'loud', MAX_BODY_BYTES: 'big' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = error!.problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'RECEIVER_CNPJ', 'RECEIVER_PIX_KEYS', 'LOG_LEVEL', 'RECEIVER_NAME', 'MAX_BODY_BYTES']) expect(text).toContain(name);
  });

  it('accepts LOCAL_* overrides', () => {
    const c = loadConfig({ LOCAL_PIX_KEY: 'loja@example.com', LOCAL_RECEIVER_NAME: 'Loja' });
    expect(c.recebedor).toMatchObject({ nome: 'Loja', chaves: ['loja@example.com'] });
  });
});
