import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's chromium package. `npm test` installs it when missing (tools/test.js, one provisioning
 * step for every browser test); a suite run on its own says how to get it.
 */
export function ensureChromium(): string {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`npm test\` (it installs Debian's chromium) or apt-get install -y chromium`);
  return CHROMIUM;
}

/** Headless Chromium with a new, empty profile; `close` also removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'pix-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: ensureChromium(),
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
