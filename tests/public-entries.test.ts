import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

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

  it.each(packages)('@skeval/%s exports no value that docs/library.md does not name', async (name) => {
    const entry: Record<string, unknown> = await import(`${root}packages/${name}/src/index.ts`);
    const undocumented = Object.keys(entry).filter((key) => !documented.has(key));
    expect(undocumented).toEqual([]);
  });

  it.each(packages)('@skeval/%s/internal carries every name of the main entry', async (name) => {
    const entry: Record<string, unknown> = await import(`${root}packages/${name}/src/index.ts`);
    const internal: Record<string, unknown> = await import(`${root}packages/${name}/src/internal.ts`);
    const missing = Object.keys(entry).filter((key) => internal[key] !== entry[key]);
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
