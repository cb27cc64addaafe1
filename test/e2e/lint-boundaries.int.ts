import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '../..');

/**
 * `npm run lint` on a fresh clone: the working tree's files (no .nx cache, no build output) in a
 * throw-away folder sharing node_modules. Without a cached project graph the Nx boundary rule used to
 * skip itself and the run passed; the lint command must compute the graph and report the import.
 */
describe('npm run lint enforces module boundaries on a fresh clone', () => {
  let clone: string;

  beforeAll(() => {
    clone = mkdtempSync(path.join(tmpdir(), 'pix-lint-'));
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
    for (const file of files) {
      if (!existsSync(path.join(root, file))) continue; // deleted in the working tree
      mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
      copyFileSync(path.join(root, file), path.join(clone, file));
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  function lintProbe(name: string, source: string) {
    const probe = path.join('libs', 'domain', 'src', name);
    writeFileSync(path.join(clone, probe), source);
    try {
      const r = spawnSync('npm', ['run', '--silent', 'lint', '--', probe], { cwd: clone, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } });
      return { status: r.status, output: `${r.stdout}${r.stderr}`, probe };
    } finally {
      rmSync(path.join(clone, probe), { force: true });
    }
  }

  it('reports the domain importing an infrastructure library as an error', () => {
    expect(existsSync(path.join(clone, '.nx'))).toBe(false);
    const r = lintProbe('boundary-probe.ts', "import { PostgresEventStore } from '@pix/event-store';\nexport const probe = PostgresEventStore;\n");
    expect(r.output).toContain('@nx/enforce-module-boundaries');
    expect(r.output).toContain(r.probe);
    expect(r.output).not.toContain('rule will be skipped');
    expect(r.status).not.toBe(0);
  });

  it('passes the same file when it respects the boundaries', () => {
    const r = lintProbe('boundary-probe-ok.ts', "import { foldEvents } from './decider';\nexport const probe = foldEvents;\n");
    expect(r.output).not.toContain('@nx/enforce-module-boundaries');
    expect(r.status).toBe(0);
  });
});
