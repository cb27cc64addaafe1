// Lets a child process run this library's TypeScript directly (tests only), compiled by the same
// SWC the Jest transform uses, so a test can put a worker in a second OS process without a build.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    // Decorators: the workspace libraries this one imports (contracts' DTOs) use them.
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

// The workspace's `@pix/<lib>` imports, as tsconfig.base.json maps them for the compiler.
const Module = require('node:module');
const path = require('node:path');
const libs = path.resolve(__dirname, '../../..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const match = /^@pix\/([a-z-]+)$/.exec(request);
  return resolve.call(this, match ? path.join(libs, match[1], 'src', 'index.ts') : request, ...rest);
};
