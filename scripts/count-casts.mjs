// Counts type assertions in the shipped sources (packages/*/src and apps/*/src, tests and
// fixtures left out): `as T` casts (not `as const`) and non-null `!`, per 1,000 lines.
// Exits 1 when either is above the limit, so `pnpm lint` holds the line.
import { readFileSync } from 'node:fs';
import { glob } from 'tinyglobby';
import ts from 'typescript';

const limitPerThousand = 4;
const root = new URL('..', import.meta.url).pathname;
const files = await glob(['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'], {
  cwd: root,
  ignore: ['**/*.test.ts', '**/__fixtures__/**'],
});

let lines = 0;
const casts = [];
const nonNull = [];
for (const file of files.sort()) {
  const text = readFileSync(`${root}${file}`, 'utf8');
  lines += text.split('\n').length;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = (node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
      if (!isConst) casts.push(where(node));
    } else if (ts.isNonNullExpression(node)) nonNull.push(where(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const rate = (count) => (count / lines) * 1000;
const verbose = process.argv.includes('--list');
for (const [name, found] of [
  ['`as` casts', casts],
  ['non-null `!`', nonNull],
]) {
  console.log(
    `${name}: ${found.length} in ${lines} lines = ${rate(found.length).toFixed(1)} per 1,000 lines (limit ${limitPerThousand})`,
  );
  if (verbose) for (const place of found) console.log(`  ${place}`);
}
if (rate(casts.length) > limitPerThousand || rate(nonNull.length) > limitPerThousand) {
  console.log(
    'over the limit: type the value (a schema, a guard, a narrowing) instead of asserting it; --list shows where',
  );
  process.exitCode = 1;
}
