import { defineConfig } from 'vitest/config';
import { isSkipReporter, SkipReporter } from './tests/skip-reporter.js';

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

/** Lists each skipped test with its reason, after the summary of the default reporter. */
const skipReporter = new SkipReporter();
/** The reporters a person reads; the skip list goes beside them, not into json or junit output. */
const terminalReporters = ['default', 'verbose', 'tree', 'dot', 'agent'];

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions } },
  plugins: [
    {
      // `--reporter` on the command line (as .ci/run gives) replaces the reporters below: put the
      // skip list back beside a terminal reporter.
      name: 'skeval-skip-reporter',
      configureVitest({ vitest }) {
        const { reporters } = vitest.config;
        const terminal = reporters.some(
          (reporter) => Array.isArray(reporter) && terminalReporters.includes(reporter[0]),
        );
        if (terminal && !reporters.some(isSkipReporter)) reporters.push(skipReporter);
      },
    },
  ],
  test: {
    reporters: ['default', skipReporter],
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
