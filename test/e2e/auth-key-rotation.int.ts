import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { startApi, type RunningApi } from '../support/api-harness';

// Rotating AUTH_TOKEN_KEY: tokens of the old key keep working while it is listed in
// AUTH_TOKEN_PREVIOUS_KEYS, new tokens come from the new key, and dropping the old key ends them.
jest.setTimeout(60_000);

const OLD_KEY = 'a1'.repeat(32);
const NEW_KEY = 'b2'.repeat(32);

describe('signing-key rotation', () => {
  let db: TestDatabase;
  let api: RunningApi | undefined;
  const start = async (env: Record<string, string>) => (api = await startApi({ db, env }));
  const status = async (token: string) => (await api!.request('GET', '/cobv?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z', undefined, { authorization: `Bearer ${token}` }, { auth: true })).status;

  beforeAll(async () => {
    db = await createTestDatabase('key_rotation');
  });
  afterEach(async () => {
    await api?.stop({ keepDatabase: true });
    api = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('accepts the old key’s tokens only while the old key is listed as previous', async () => {
    await start({ AUTH_TOKEN_KEY: OLD_KEY });
    const oldToken = await api!.tokenFor();
    expect(await status(oldToken)).toBe(200);
    await api!.stop({ keepDatabase: true });

    await start({ AUTH_TOKEN_KEY: NEW_KEY, AUTH_TOKEN_PREVIOUS_KEYS: OLD_KEY });
    expect(await status(oldToken)).toBe(200);
    const newToken = await api!.tokenFor();
    expect(await status(newToken)).toBe(200);
    await api!.stop({ keepDatabase: true });

    await start({ AUTH_TOKEN_KEY: NEW_KEY });
    expect(await status(oldToken)).toBe(401);
    expect(await status(newToken)).toBe(200);
  });
});
