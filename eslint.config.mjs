import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '.nx/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // The domain is pure: it may only use other domain code.
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
            // Contracts are what other systems read: they depend on nothing of ours.
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:infra'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:infra', 'type:testing'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:infra', 'type:testing'] },
            // Cash-in transports (Kafka, local mode's in-process one) know the message contract only:
            // not the domain, the store, the outbox, the wiring that uses them, or each other.
            { sourceTag: 'messaging:transport', onlyDependOnLibsWithTags: ['type:contracts'] },
            // The wiring (notifier intake, controllers, settings) never picks local mode's transport: the app does.
            { sourceTag: 'messaging:wiring', notDependOnLibsWithTags: ['messaging:local'] },
          ],
        },
      ],
    },
  },
  {
    // Specs and integration tests of any project may use the shared testing helpers.
    files: ['**/*.spec.ts', '**/*.int.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@pix/testing'],
          depConstraints: [{ sourceTag: '*', onlyDependOnLibsWithTags: ['*'] }],
        },
      ],
    },
  },
  {
    // The domain never touches Nest, the database or the process environment.
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@nestjs/*', 'pg', 'kafkajs', '@eventstore/*'] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Libraries receive configuration; only apps read the environment.' }],
    },
  },
  {
    files: ['libs/**/*.ts'],
    ignores: ['libs/testing/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Libraries receive configuration; only apps read the environment.' }],
    },
  },
];
