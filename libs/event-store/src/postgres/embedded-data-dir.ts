import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { StartupError } from '@pix/observability';

/** The account the server runs as when we are root (PostgreSQL refuses to run as root). */
export interface DatabaseUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * Creates the cluster's folder and, as root, makes it usable by the database user: the folder is
 * handed to it, and an ancestor it cannot enter (such as the 0700 folder `mktemp -d` makes) gets
 * search permission for others (o+x: enter by name, not list) only where that exposes nothing
 * else: the folder is ours and every other entry in it is closed to group and others. Anything
 * else is the operator's decision, so a StartupError names the folder and the fix.
 */
export function prepareDataDir(dataDir: string, user: DatabaseUser | undefined): void {
  const existing = statOrUndefined(dataDir);
  if (existing && !existing.isDirectory()) throw new StartupError(`${dataDir} is not a folder: point DATA_DIR at a folder, or at a path that does not exist yet`);
  // Refused before anything is created, so a refusal leaves no folders behind.
  if (user) openWayTo(path.resolve(dataDir), user, false);
  makeFolders(dataDir);
  if (!user) return;
  const real = realpathSync(dataDir);
  try {
    chownSync(real, user.uid, user.gid);
    chmodSync(real, 0o700); // PostgreSQL requires its folder closed to others
  } catch (error) {
    throw new StartupError(`cannot give the database folder ${real} to the database user ${user.name} (${(error as Error).message}): point DATA_DIR at a folder on a local file system`, { cause: error });
  }
  if (usableBy(real, user)) return;
  openWayTo(real, user, true);
  if (!usableBy(real, user)) throw new StartupError(`the database user ${user.name} cannot use ${real}. Fix: point DATA_DIR at a folder ${user.name} can enter and write`);
}

/** Each existing ancestor the user cannot enter: opened if that is safe (when `apply`), else refused. */
function openWayTo(target: string, user: DatabaseUser, apply: boolean): void {
  const parts = target.split(path.sep).filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    const stat = statOrUndefined(dir);
    if (!stat?.isDirectory()) return; // created by us below this point (or not creatable: makeFolders says why)
    if (canSearch(stat, user)) continue;
    if (!opensNothingElse(dir, stat, parts[i])) {
      throw new StartupError(
        `the database user ${user.name} cannot reach ${target}: it may not enter ${dir}, which holds other files. Fix: point DATA_DIR at a folder ${user.name} can reach (for example under /var/lib), or allow it in: chmod o+x ${dir}`,
      );
    }
    if (apply) chmodSync(dir, (stat.mode & 0o7777) | 0o001);
  }
}

/** `mkdir -p`, one level at a time: Node's recursive mkdir loops for ever where mkdir says ENOENT under an existing folder (/proc). */
function makeFolders(dir: string): void {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const folder = path.sep + parts.slice(0, i).join(path.sep);
    const stat = statOrUndefined(folder);
    if (stat?.isDirectory()) continue;
    if (stat) throw new StartupError(`cannot create the database folder ${dir}: ${folder} is not a folder. Fix: point DATA_DIR at a folder`);
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statOrUndefined(folder)?.isDirectory()) continue; // made meanwhile
      throw new StartupError(`cannot create the database folder ${dir} (${(error as Error).message}): point DATA_DIR at a folder this process can write`, { cause: error });
    }
  }
}

/** As the kernel decides it for the server's process, which keeps only its primary group. */
function canSearch(stat: Stats, user: DatabaseUser): boolean {
  const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
  return (stat.mode & bit) !== 0;
}

/** Ours (owned by this process's user), and every entry but the way to the cluster is closed to group and others. */
function opensNothingElse(dir: string, stat: Stats, next: string): boolean {
  if (stat.uid !== process.getuid?.()) return false;
  return readdirSync(dir).every((entry) => {
    if (entry === next) return true;
    const s = lstatSync(path.join(dir, entry));
    return !s.isSymbolicLink() && (s.mode & 0o077) === 0;
  });
}

/** Asked of the system as the database user itself (this also honours ACLs): can it enter and write the folder? */
function usableBy(dir: string, user: DatabaseUser): boolean {
  const probe = spawnSync('/bin/sh', ['-c', 'cd -- "$1" && test -w .', 'probe', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return probe.status === 0;
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
