import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

const featuresDir = 'apps/web/src/features';
/** One-way feature dependencies: the workflows screens show runs (their list, details, run panel); runs never import workflows. */
const featureDependencies = { workflows: ['runs'] };
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'packages/db/migrations/**',
      'bench/results/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/.artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through apps/server/src/platform/env.ts.',
        },
      ],
    },
  },
  {
    // The configuration module, scripts, tests and tooling may read the environment.
    files: [
      'apps/server/src/platform/env.ts',
      'apps/server/src/main.ts',
      'apps/server/src/start.ts',
      'apps/server/src/testing/**',
      '**/*.test.ts',
      'scripts/**',
      'e2e/**',
      'bench/**',
      '**/*.config.ts',
      'packages/db/src/embedded.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['apps/server/src/**/*.ts', 'packages/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='toLocaleString']",
          message:
            'Use formatNumber (@crewline/contracts/format-number): an ICU number format holds ~7 MiB of the server for good.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'http'].map((name) => ({
            name,
            allowTypeImports: true,
            message:
              "Types only: at run time use platform/node-http.ts (an import of node:http loads Node's undici).",
          })),
          patterns: [
            {
              group: ['**/testing/**', '**/testing'],
              message: 'Production code never imports test helpers.',
            },
          ],
        },
      ],
    },
  },
  {
    // Routes and services never touch the database; only repositories do (docs/architecture.md).
    files: ['apps/server/src/modules/**/*.routes.ts', 'apps/server/src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'drizzle-orm', message: 'Only repositories query the database.' },
            { name: 'pg', message: 'Only repositories query the database.' },
          ],
          patterns: [
            {
              group: ['@crewline/db', '@crewline/db/*'],
              allowTypeImports: true,
              message: 'Only repositories query the database.',
            },
            { group: ['**/testing/**'], message: 'Production code never imports test helpers.' },
          ],
        },
      ],
    },
  },
  {
    // One-way modules (docs/architecture.md, Modules; decision 0039): a file of one module may import
    // from another module only its *.service.ts, as types (`import type`: the composition roots
    // app.ts and worker.ts hand services over), and its *.columns.ts; platform/* is free. Every file
    // of every module is checked; tests may reach across modules to set up and check rows. The
    // graph's direction (no cycle) is checked by modules/module-graph.test.ts.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts'] } },
      'boundaries/legacy-templates': false,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/elements': [
        { type: 'module', pattern: 'apps/server/src/modules/*', capture: ['module'] },
        { type: 'platform', pattern: 'apps/server/src/platform' },
      ],
      'boundaries/files': [
        { category: 'service', pattern: '**/*.service.ts' },
        { category: 'columns', pattern: '**/*.columns.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { allow: { to: { element: { captured: { module: '{{ from.element.captured.module }}' } } } } },
            { allow: { to: { element: { type: 'platform' } } } },
            { allow: { to: { file: { categories: 'columns' } } } },
            { allow: { to: { file: { categories: 'service' } }, dependency: { kind: 'type' } } },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/engine/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '@crewline/db', 'pg', 'drizzle-orm', 'fastify'],
              message: 'The engine is pure: no I/O, everything through ports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@crewline/db', '@crewline/server', 'drizzle-orm', 'pg'],
              message: 'The web app only talks to the API.',
            },
          ],
        },
      ],
    },
  },
  // Features never import each other (but for the one-way dependencies above); shared pieces live in components/ or lib/ (docs/architecture.md).
  ...features.map((feature) => ({
    files: [`${featuresDir}/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@/features/*',
                `!@/features/${feature}`,
                `!@/features/${feature}/**`,
                ...(featureDependencies[feature] ?? []).flatMap((other) => [
                  `!@/features/${other}`,
                  `!@/features/${other}/**`,
                ]),
              ],
              message: 'Features never import each other: move shared code to src/components or src/lib.',
            },
            {
              group: ['../../*/**', '!../../' + feature + '/**'],
              message: 'Features never import each other.',
            },
            { group: ['@crewline/db', 'drizzle-orm', 'pg'], message: 'The web app only talks to the API.' },
          ],
        },
      ],
    },
  })),
);
