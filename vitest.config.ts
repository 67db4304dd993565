import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the `@skeval/source` export
// condition), so tests run whether or not anything was built.
const sourceConditions = ['@skeval/source', 'module', 'node', 'development|production'];

const projects = [
  'packages/schema',
  'packages/scripts',
  'packages/judge',
  'packages/evals',
  'packages/run-folder',
  'packages/core',
  'packages/report',
  'apps/cli',
  'apps/assert',
  'tools/fake-provider',
];

/**
 * The CLI loads the engine (@skeval/core) only when a command needs it, so the first command of
 * each CLI test file pays for importing it from source: on a loaded machine, past vitest's 5 s.
 */
const testTimeouts: Partial<Record<string, number>> = { 'apps/cli': 15_000 };

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
          ...(testTimeouts[dir] === undefined ? {} : { testTimeout: testTimeouts[dir] }),
        },
      })),
      { extends: true as const, test: { name: 'repo', include: ['tests/**/*.test.ts'] } },
    ],
  },
});
