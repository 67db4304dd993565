import { readFileSync } from 'node:fs';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

/** The workspace edges DESIGN §2 allows: package → the workspace packages it may depend on. */
const allowedEdges: Record<string, string[]> = {
  '@skeval/schema': [],
  '@skeval/scripts': ['@skeval/schema'],
  '@skeval/judge': ['@skeval/schema'],
  '@skeval/evals': ['@skeval/schema', '@skeval/scripts'],
  '@skeval/run-folder': ['@skeval/schema'],
  '@skeval/core': ['@skeval/schema', '@skeval/scripts', '@skeval/judge', '@skeval/evals', '@skeval/run-folder'],
  '@skeval/report': ['@skeval/schema', '@skeval/run-folder'],
  '@skeval/cli': [
    '@skeval/schema',
    '@skeval/scripts',
    '@skeval/judge',
    '@skeval/evals',
    '@skeval/run-folder',
    '@skeval/core',
    '@skeval/report',
    '@skeval/assert',
  ],
  '@skeval/assert': ['@skeval/schema', '@skeval/scripts'],
};
/** Third-party packages a layer must never load. */
const forbiddenExternal: Record<string, string[]> = {
  '@skeval/schema': ['*'],
  '@skeval/scripts': ['openai', '@anthropic-ai/sdk'],
  '@skeval/evals': ['openai', '@anthropic-ai/sdk', 'execa'],
  '@skeval/run-folder': ['openai', '@anthropic-ai/sdk', 'execa', 'shell-quote'],
  '@skeval/report': ['openai', '@anthropic-ai/sdk', 'execa', 'shell-quote'],
  '@skeval/assert': ['openai', '@anthropic-ai/sdk'],
};
const schemaMayUse = ['zod'];

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifestPaths = await glob(['packages/*/package.json', 'apps/*/package.json', 'tools/*/package.json'], {
  cwd: root,
});
const manifests = manifestPaths.map((path) => ({
  path,
  manifest: JSON.parse(readFileSync(`${root}${path}`, 'utf8')) as Manifest,
}));

describe('the package graph', () => {
  it('has every package DESIGN §2 names', () => {
    expect(manifests.map(({ manifest }) => manifest.name)).toEqual(expect.arrayContaining(Object.keys(allowedEdges)));
  });

  it.each(manifests.map(({ path, manifest }) => [manifest.name, path, manifest] as const))(
    '%s depends only on what DESIGN §2 allows',
    (name, _path, manifest) => {
      const runtime = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
      const workspaceDeps = runtime.filter((dep) => dep.startsWith('@skeval/'));
      const allowed = allowedEdges[name] ?? (manifest.private ? Object.keys(allowedEdges) : []);
      expect(
        workspaceDeps.filter((dep) => !allowed.includes(dep)),
        `${name} has an edge outside DESIGN §2`,
      ).toEqual([]);
      const forbidden = forbiddenExternal[name] ?? [];
      const external = runtime.filter((dep) => !dep.startsWith('@skeval/'));
      const bad = forbidden.includes('*')
        ? external.filter((dep) => !schemaMayUse.includes(dep))
        : external.filter((dep) => forbidden.includes(dep));
      expect(bad, `${name} depends on a package its layer must not load`).toEqual([]);
    },
  );

  it('imports other packages only through their entry points (a subpath their exports name is one)', async () => {
    const entryPoints = new Set(
      manifests.flatMap(({ manifest }) =>
        Object.keys(manifest.exports ?? {}).map((subpath) => `${manifest.name}${subpath.slice(1)}`),
      ),
    );
    const sources = await glob(['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'], { cwd: root });
    const deepImports = sources.flatMap((path) => {
      const text = readFileSync(`${root}${path}`, 'utf8');
      const matches = [
        ...text.matchAll(/(?:from |import\()'((?:@skeval\/[\w-]+\/[^']+)|(?:(?:\.\.\/)+(?:packages|apps)\/[^']+))'/g),
      ];
      return matches.flatMap((match) => (entryPoints.has(match[1] ?? '') ? [] : [`${path}: ${match[1]}`]));
    });
    expect(deepImports).toEqual([]);
  });

  it('keeps every workspace import declared as a dependency (a test fixture may import a devDependency)', async () => {
    const undeclared: string[] = [];
    for (const { path, manifest } of manifests) {
      const dir = path.replace(/package\.json$/, '');
      const sources = await glob(['src/**/*.ts', '!src/**/*.test.ts'], { cwd: `${root}${dir}` });
      const runtime = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
      const forTests = new Set([...runtime, ...Object.keys(manifest.devDependencies ?? {})]);
      for (const source of sources) {
        const declared = source.includes('/__fixtures__/') ? forTests : new Set(runtime);
        const text = readFileSync(`${root}${dir}${source}`, 'utf8');
        for (const match of text.matchAll(/from '(@skeval\/[\w-]+)'/g)) {
          if (!declared.has(match[1]!)) undeclared.push(`${manifest.name}: ${source} imports ${match[1]}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });
});
