#!/usr/bin/env node
// Runs a compiled entry point from dist/, resolving the workspace's `@pix/<lib>` imports to
// dist/libs/<lib>/src (the same mapping tsconfig.base.json gives the compiler).
'use strict';
const Module = require('node:module');
const path = require('node:path');

const dist = path.resolve(__dirname, '..', 'dist');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const match = /^@pix\/([a-z-]+)$/.exec(request);
  if (match) request = path.join(dist, 'libs', match[1], 'src', 'index.js');
  return resolve.call(this, request, ...rest);
};

const entry = process.argv[2];
if (!entry) {
  console.error('usage: node tools/launch.js <path under dist/, e.g. apps/api/src/main.js> [args]');
  process.exit(2);
}
process.argv.splice(2, 1);
require(path.join(dist, entry));
