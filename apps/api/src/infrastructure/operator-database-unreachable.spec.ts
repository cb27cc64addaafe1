import { StartupError } from '@pix/observability';
import { openOperatorDatabase } from './operator-database';

// A README audit: `npm run replay` ("a setting … it cannot use exits 2") with a DATABASE_URL that
// does not answer exited 1 as a failed rebuild, and `npm run admin` 3, each without the fix the API's start gives.
describe('operator commands on a DATABASE_URL that does not answer', () => {
  it("are refused before any work, with the API's one line", async () => {
    const config = { databaseUrl: 'postgres://pix:secret@127.0.0.1:1/pix', dataDir: './data', directoryCacheMs: 2000 };
    const said: string[] = [];
    const opening = openOperatorDatabase(config, (l) => said.push(l), { needed: 'always', existing: 'replay' });
    await expect(opening).rejects.toBeInstanceOf(StartupError);
    await expect(opening).rejects.toThrow('cannot reach the database at DATABASE_URL postgres://pix:***@127.0.0.1:1/pix (connect ECONNREFUSED 127.0.0.1:1). Fix: start it, or correct DATABASE_URL');
    expect(said).toEqual(['using PostgreSQL at DATABASE_URL postgres://pix:***@127.0.0.1:1/pix']);
  });
});
