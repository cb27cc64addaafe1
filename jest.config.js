// One jest run covers the workspace; "unit" needs nothing running, "integration" talks to real
// PostgreSQL (and later Kafka) that tools/test.js provisions.
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' } }];
const moduleNameMapper = {
  '^@pix/(.*)$': '<rootDir>/libs/$1/src/index.ts',
};
const common = { transform: { '^.+\\.ts$': swc }, moduleNameMapper, testEnvironment: 'node', rootDir: __dirname };
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    // Integration tests start apps and databases: jest's 5 s default cut hooks that start an API
    // (mtls.int.ts, cobv-lifecycle.int.ts) on a busy machine. Speed is the benchmarks' business.
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int.ts'], slowTestThreshold: 30, setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'] },
  ],
};
