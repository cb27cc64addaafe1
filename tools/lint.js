#!/usr/bin/env node
// `npm run lint` (and the lint step of `npm test`): ESLint with the Nx module-boundary rule really on.
// That rule reads the cached Nx project graph and, when there is none (a fresh clone), prints a
// warning and skips itself, so a bare `eslint .` passes whatever crosses a boundary. Computing the
// graph first makes the rule check; a run where it still skipped fails instead of passing.
// Arguments go to eslint (default `.`), run from the workspace root.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function lint(args) {
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
  const graph = spawnSync(bin('nx'), ['show', 'projects'], { cwd: root, env, encoding: 'utf8' });
  if (graph.status !== 0) {
    process.stderr.write(`${graph.stdout ?? ''}${graph.stderr ?? ''}`);
    console.error(`lint: could not compute the Nx project graph (${graph.error?.message ?? `nx exited with ${graph.status}`}); the module-boundary rule cannot run.`);
    return 1;
  }
  const eslint = spawnSync(bin('eslint'), ['--max-warnings=0', ...(args.length > 0 ? args : ['.'])], {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  process.stdout.write(eslint.stdout ?? '');
  if (/No cached ProjectGraph is available/.test(eslint.stdout ?? '')) {
    console.error('lint: @nx/enforce-module-boundaries skipped itself (no Nx project graph); module boundaries were NOT checked.');
    return 1;
  }
  if (eslint.error) console.error(`lint: eslint did not run (${eslint.error.message})`);
  return eslint.status ?? 1;
}

module.exports = { lint };
if (require.main === module) process.exit(lint(process.argv.slice(2)));
