import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the `@skeval/source` export
// condition), so tests run whether or not anything was built.
const sourceConditions = ['@skeval/source', 'module', 'node', 'development|production'];

const projects = [
  'packages/schema',
  'packages/scripts',
  'packages/judge',
  'packages/evals',
  'packages/core',
  'packages/report',
  'apps/cli',
  'apps/assert',
  'tools/fake-provider',
];

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions } },
  test: {
    setupFiles: ['./tests/setup.ts'],
    projects: [
      ...projects.map((dir) => ({
        extends: true as const,
        test: {
          name: dir.split('/')[1],
          include: [`${dir}/src/**/*.test.ts`],
          // A command's module (and the engine it needs) loads when the command first runs, from source: in a test.
          ...(dir === 'apps/cli' ? { testTimeout: 20_000 } : {}),
        },
      })),
      { extends: true as const, test: { name: 'repo', include: ['tests/**/*.test.ts'] } },
    ],
  },
});
