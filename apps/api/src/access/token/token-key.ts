import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../../config/config';

export const tokenKeyFile = (dataDir: string) => path.resolve(dataDir, 'token-signing.key');

/**
 * The HMAC key for access tokens: AUTH_TOKEN_KEY when given (always in production, where every
 * instance must share it). Local mode without one makes a key once and keeps it in DATA_DIR
 * (mode 0600), so tokens survive a restart.
 */
export function resolveTokenKey(config: AppConfig): Buffer {
  if (config.auth.tokenKey) return config.auth.tokenKey;
  if (config.mode !== 'local') throw new Error('AUTH_TOKEN_KEY is required in production mode');
  const file = tokenKeyFile(config.dataDir);
  try {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length >= 32) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  // 'wx': two processes starting at once cannot both write; the loser reads the winner's key.
  try {
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    throw error;
  }
  chmodSync(file, 0o600);
  return key;
}
