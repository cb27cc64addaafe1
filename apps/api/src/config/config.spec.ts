import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, loadDeadLettersConfig } from './config';
import { makePayloadKeyFiles, productionEnv } from './payload-keys.fixture';
import { localConsumerGroups } from './settlement-config';

describe('configuration', () => {
  const keys = makePayloadKeyFiles();
  afterAll(() => rmSync(keys.dir, { recursive: true, force: true }));
  /** Everything production requires. */
  const production = () => productionEnv(keys);

  it('starts in local mode with the documented sandbox receiver', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ mode: 'local', port: 8080, basePath: '/v2', dataDir: './data' });
    expect(c.recebedor).toMatchObject({ cnpj: '56989000019563', chaves: ['5f84a4c5-c5cb-4599-9f13-7eb4d419dacc'] });
  });

  it('reports every bad value at once, with a message each', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ MODE: 'production', PORT: 'eighty', LOG_LEVEL: 'loud', MAX_BODY_BYTES: 'big', AUTH_TOKEN_KEY: 'short' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = error!.problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'MAX_BODY_BYTES', 'AUTH_TOKEN_KEY']) expect(text).toContain(name);
  });

  it('takes no receiver from the environment in production: receivers come from `npm run admin`', () => {
    const keys = makePayloadKeyFiles(); // production requires the payload-signing key (ADR 11)
    const signing = { PAYLOAD_SIGNING_KEY_FILE: keys.file('current.key'), PAYLOAD_SIGNING_CERT_FILE: keys.file('current.crt') };
    const c = loadConfig({ MODE: 'production', ...signing, DATABASE_URL: 'postgres://db/pix', AUTH_TOKEN_KEY: 'ab'.repeat(32), LOCATION_HOST: 'pix.example.com', KAFKA_BROKERS: 'kafka:9092', RECEIVER_CNPJ: '56989000019563', RECEIVER_PIX_KEYS: 'loja@example.com' });
    expect(c.recebedor).toBeUndefined();
  });

  it('checks the local receiver (LOCAL_*) in local mode', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ LOCAL_RECEIVER_CNPJ: '56989000019564', LOCAL_PIX_KEY: 'Not A Key', LOCAL_RECEIVER_UF: 'sp' });
    } catch (e) {
      error = e as ConfigError;
    }
    const text = error!.problems.join('\n');
    for (const name of ['LOCAL_RECEIVER_CNPJ', 'LOCAL_PIX_KEY', 'LOCAL_RECEIVER_UF']) expect(text).toContain(name);
  });

  it('accepts LOCAL_* overrides', () => {
    const c = loadConfig({ LOCAL_PIX_KEY: 'loja@example.com', LOCAL_RECEIVER_NAME: 'Loja' });
    expect(c.recebedor).toMatchObject({ nome: 'Loja', chaves: ['loja@example.com'] });
  });

  it('reads previous token keys for rotation, each at least 32 bytes', () => {
    const a = 'a'.repeat(64);
    const b = Buffer.alloc(32, 3).toString('base64');
    expect(loadConfig({ AUTH_TOKEN_PREVIOUS_KEYS: `${a}, ${b}` }).auth.previousTokenKeys).toEqual([Buffer.from(a, 'hex'), Buffer.alloc(32, 3)]);
    expect(loadConfig({}).auth.previousTokenKeys).toEqual([]);
    expect(() => loadConfig({ AUTH_TOKEN_PREVIOUS_KEYS: 'abcd' })).toThrow(/AUTH_TOKEN_PREVIOUS_KEYS/);
  });

  // Two deployments on one broker in one group would split the cash-ins between their databases.
  it('takes the settlement consumer group from SETTLEMENT_GROUP_ID, pix-api-settlement by default in production, and refuses an empty or odd one', () => {
    expect(loadConfig(production()).settlementGroupId).toBe('pix-api-settlement');
    expect(loadConfig({ SETTLEMENT_GROUP_ID: 'staging.pix-api-settlement_2' }).settlementGroupId).toBe('staging.pix-api-settlement_2');
    for (const bad of ['', ' ', 'a b', 'x'.repeat(250)]) {
      expect(() => loadConfig({ SETTLEMENT_GROUP_ID: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ SETTLEMENT_GROUP_ID: bad })).toThrow(/SETTLEMENT_GROUP_ID must be 1 to 249 letters/);
    }
  });

  it('npm run dead-letters needs a broker, and says why KAFKA_BROKERS=none is not one', () => {
    expect(() => loadDeadLettersConfig({})).toThrow(/KAFKA_BROKERS is required: dead letters live in Kafka/);
    expect(() => loadDeadLettersConfig({ KAFKA_BROKERS: 'none' })).toThrow(/KAFKA_BROKERS=none names no broker, and dead letters live in Kafka/);
    expect(loadDeadLettersConfig({ KAFKA_BROKERS: 'k:9092' })).toEqual({ kafkaBrokers: ['k:9092'] });
  });

  it("takes the local-mode notifier intake's group from NOTIFIER_GROUP_ID, under the same rules", () => {
    expect(loadConfig({ NOTIFIER_GROUP_ID: 'dev-ana.pix-notifier' }).notifierGroupId).toBe('dev-ana.pix-notifier');
    for (const bad of ['', ' ', 'a b']) expect(() => loadConfig({ NOTIFIER_GROUP_ID: bad })).toThrow(/NOTIFIER_GROUP_ID must be 1 to 249 letters/);
  });

  // A local instance defaulted to the deployment groups and, on a shared broker, settled 3 of a
  // deployment's 6 cash-ins as no receiver's here (operator audit).
  describe('local mode: consumer groups of its own', () => {
    const hash = (dir: string) => createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 8);

    it('derives them from the absolute DATA_DIR: the same folder the same groups (offsets survive a restart), another folder others', () => {
      const dir = path.join(tmpdir(), 'pix-dev-ana');
      const groups = (env: Record<string, string>) => (({ settlementGroupId, notifierGroupId }) => ({ settlementGroupId, notifierGroupId }))(loadConfig({ KAFKA_BROKERS: 'kafka:9092', ...env }));
      expect(groups({ DATA_DIR: dir })).toEqual({ settlementGroupId: `pix-local-${hash(dir)}-settlement`, notifierGroupId: `pix-local-${hash(dir)}-notifier` });
      expect(groups({ DATA_DIR: dir })).toEqual(localConsumerGroups(dir));
      expect(groups({ DATA_DIR: `${dir}/../pix-dev-ana/` })).toEqual(groups({ DATA_DIR: dir }));
      expect(groups({})).toEqual(localConsumerGroups(path.resolve('data')));
      expect(groups({ DATA_DIR: path.join(tmpdir(), 'pix-dev-bia') }).settlementGroupId).not.toBe(groups({ DATA_DIR: dir }).settlementGroupId);
      expect(Object.values(groups({}))).not.toEqual(expect.arrayContaining(['pix-api-settlement']));
      expect(Object.values(groups({}))).not.toEqual(expect.arrayContaining(['pix-notifier']));
    });

    it('takes explicit groups as given', () => {
      expect(loadConfig({ SETTLEMENT_GROUP_ID: 'dev-ana-settlement', NOTIFIER_GROUP_ID: 'dev-ana-notifier' })).toMatchObject({ settlementGroupId: 'dev-ana-settlement', notifierGroupId: 'dev-ana-notifier' });
    });

    it("refuses a deployment's default group in either variable, in one line saying why", () => {
      for (const variable of ['SETTLEMENT_GROUP_ID', 'NOTIFIER_GROUP_ID'])
        for (const group of ['pix-api-settlement', 'pix-notifier']) {
          let problems: string[] = [];
          try {
            loadConfig({ KAFKA_BROKERS: 'kafka:9092', [variable]: group });
          } catch (error) {
            problems = (error as ConfigError).problems;
          }
          expect(problems).toEqual([`${variable}=${group} is a deployment's default consumer group: a local instance in it would take that deployment's cash-ins; leave it unset (local mode uses groups of its own, from DATA_DIR) or name another`]);
        }
    });

    it('production keeps the deployment defaults and takes them when named', () => {
      expect(loadConfig(production())).toMatchObject({ settlementGroupId: 'pix-api-settlement', notifierGroupId: 'pix-notifier' });
      expect(loadConfig({ ...production(), SETTLEMENT_GROUP_ID: 'pix-api-settlement' }).settlementGroupId).toBe('pix-api-settlement');
    });
  });
});
