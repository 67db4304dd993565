// Packs every published package (all but the private test tools) into packs/, one tarball each
// with workspace:* turned into versions, so that one `npm i <clone>/packs/*.tgz` installs
// Skeval in any project. Run after a build (`pnpm pack:all` builds first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'packs');
const packages = ['packages', 'apps']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);
const unbuilt = packages.filter(({ dir }) => !existsSync(join(dir, 'dist')));
if (unbuilt.length) {
  console.error(
    `pack-all: ${unbuilt.map(({ manifest }) => manifest.name).join(', ')} has no dist/: run pnpm build first`,
  );
  process.exit(1);
}
// Older tarballs would be installed beside the new ones by the glob: the folder starts empty.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const { dir, manifest } of packages) {
  const packed = spawnSync('pnpm', ['pack', '--pack-destination', out], { cwd: dir, encoding: 'utf8' });
  if (packed.status !== 0) {
    console.error(`pack-all: pnpm pack of ${manifest.name} failed:\n${packed.stdout}${packed.stderr}`);
    process.exit(1);
  }
}
const shown = relative(process.cwd(), out) || '.';
console.log(`packed ${packages.length} packages into ${shown}/; install them in a project with:`);
console.log(`  npm i -D ${out}/*.tgz`);
