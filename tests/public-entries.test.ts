import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

// Each package's main entry is what docs/library.md documents (decision 0028); what Skeval's own
// packages share beyond it is in `./internal`, which carries the main entry whole.

const root = new URL('..', import.meta.url).pathname;
const library = readFileSync(`${root}docs/library.md`, 'utf8');
/** The sources the `@skeval/source` condition resolves each entry to. */
const packages = ['core', 'schema', 'evals', 'judge', 'scripts', 'run-folder', 'report'];

/** The names the page shows as code: in its prose (`name`, `name(…)`), and each name its examples import. */
function documentedNames(text: string): Set<string> {
  const names = new Set<string>();
  const prose = text.replace(/^```[\s\S]*?^```$/gm, (block) => {
    for (const [, list] of block.matchAll(/import \{([^}]+)\} from/g)) {
      for (const name of list?.split(',') ?? []) names.add(name.trim());
    }
    return '';
  });
  for (const [, code] of prose.matchAll(/`([^`]+)`/g)) {
    for (const [name] of code?.matchAll(/[A-Za-z_$][\w$]*/g) ?? []) names.add(name);
  }
  return names;
}

interface Manifest {
  exports: Record<string, unknown>;
  publishConfig: { exports: Record<string, unknown> };
}

describe('public entries', () => {
  const documented = documentedNames(library);
  const entries = new Map<string, { main: Record<string, unknown>; internal: Record<string, unknown> }>();

  // Importing the sources compiles each package once: the first file of a busy machine's test run
  // can take longer than one test's default time, so they are loaded here, with time of their own.
  beforeAll(async () => {
    for (const name of packages) {
      const main: Record<string, unknown> = await import(`${root}packages/${name}/src/index.ts`);
      const internal: Record<string, unknown> = await import(`${root}packages/${name}/src/internal.ts`);
      entries.set(name, { main, internal });
    }
  }, 120_000);

  const entryOf = (name: string) => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`@skeval/${name} was not loaded`);
    return entry;
  };

  it.each(packages)('@skeval/%s exports no value that docs/library.md does not name', (name) => {
    const undocumented = Object.keys(entryOf(name).main).filter((key) => !documented.has(key));
    expect(undocumented).toEqual([]);
  });

  it.each(packages)('@skeval/%s/internal carries every name of the main entry', (name) => {
    const { main, internal } = entryOf(name);
    const missing = Object.keys(main).filter((key) => internal[key] !== main[key]);
    expect(missing).toEqual([]);
  });

  it.each(packages)('@skeval/%s publishes ./internal with its types, in the workspace and on npm', (name) => {
    const manifest: Manifest = JSON.parse(readFileSync(`${root}packages/${name}/package.json`, 'utf8'));
    const built = { types: './dist/internal.d.ts', import: './dist/internal.js' };
    expect(manifest.exports['./internal']).toEqual({ '@skeval/source': './src/internal.ts', ...built });
    expect(manifest.publishConfig.exports['./internal']).toEqual(built);
  });

  it('says that ./internal carries no stability promise', () => {
    expect(library).toMatch(/`\.\/internal`[\s\S]*no stability promise/);
  });
});
