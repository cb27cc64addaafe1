import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** The repo's ignored cache (from the sources or from dist/), shared by every test process: a temp folder per process outlived killed workers. */
const CACHE = path.join(repoRoot(__dirname), '.cache');
const WEEK_MS = 7 * 24 * 3600_000;

let made: Record<string, string> | undefined;

/**
 * PAYLOAD_SIGNING_KEY_FILE and _CERT_FILE for production-mode tests (production requires them):
 * an RSA 2048 key and a self-signed certificate (30 days) made with the openssl CLI once a week,
 * in a folder named after the week, for every test process. A pair is made in a folder of its
 * own and renamed into place; when two workers make one at once the second rename fails and
 * that worker uses the first's, so no process ever sees half a pair or a pair replaced under it.
 */
export function testPayloadSigningEnv(): Record<string, string> {
  if (!made) {
    const week = Math.floor(Date.now() / WEEK_MS);
    const dir = path.join(CACHE, `test-payload-keys-${week}`);
    if (!existsSync(dir)) {
      mkdirSync(CACHE, { recursive: true });
      const fresh = mkdtempSync(`${dir}.new-`);
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'payload.key', '-out', 'payload.crt', '-days', '30', '-subj', '/CN=localhost'], { cwd: fresh, stdio: 'pipe' });
      try {
        renameSync(fresh, dir);
      } catch {
        rmSync(fresh, { recursive: true, force: true }); // another worker's pair is in place
      }
      // Pairs (and halves a killed worker left) of two weeks ago and older: no test process uses them.
      for (const name of readdirSync(CACHE)) {
        const m = /^test-payload-keys-(\d+)(\.new-\w+)?$/.exec(name);
        if (m && Number(m[1]) < week - 1) rmSync(path.join(CACHE, name), { recursive: true, force: true });
      }
    }
    made = { PAYLOAD_SIGNING_KEY_FILE: path.join(dir, 'payload.key'), PAYLOAD_SIGNING_CERT_FILE: path.join(dir, 'payload.crt') };
  }
  return made;
}

function repoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no nx.json above ${from}`);
  }
}
