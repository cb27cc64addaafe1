import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@pix/event-store';

/** The local-mode engine in a throw-away folder. */
export async function startTestEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-embedded-pg-'));
  chmodSync(dir, 0o755); // as root the server runs as `postgres`, which must reach its folder
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
  return {
    ...pg,
    async stop() {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
