// Holds the shipped sources to small files and functions: no file over 400 lines and no function
// over 100 lines (from its signature to its closing brace), tests and fixtures left out.
// Parses each file with the TypeScript parser, so strings and comments cannot fool the count.
// Exits 1 listing each file and function over its limit, so `pnpm lint` holds the line.
import { readFileSync } from 'node:fs';
import { glob } from 'tinyglobby';
import ts from 'typescript';

const fileLimit = 400;
const functionLimit = 100;
const root = new URL('..', import.meta.url).pathname;
const files = await glob(['packages/*/src/**/*.{ts,tsx}', 'apps/*/src/**/*.ts', 'tools/*/src/**/*.ts'], {
  cwd: root,
  ignore: ['**/*.test.ts', '**/*.test.tsx', '**/__fixtures__/**', '**/*.d.ts'],
});

/** Lines as `wc -l` counts them, plus a last line with no newline after it. */
const countLines = (text) => {
  const newlines = text.split('\n').length - 1;
  return text.length > 0 && !text.endsWith('\n') ? newlines + 1 : newlines;
};

/** The name a reader would look for: the declared name, else what the function is assigned to. */
const nameOf = (node, source) => {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.initializer === node) {
    return parent.name.getText(source);
  }
  if (ts.isPropertyDeclaration(parent) && parent.initializer === node) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `(callback to ${parent.expression.getText(source)})`;
  return '(anonymous)';
};

const lineOf = (source, position) => source.getLineAndCharacterOfPosition(position).line + 1;

const largeFiles = [];
const largeFunctions = [];
for (const file of files.sort()) {
  const text = readFileSync(`${root}${file}`, 'utf8');
  const lines = countLines(text);
  if (lines > fileLimit) largeFiles.push({ file, lines });
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const line = lineOf(source, node.getStart(source));
      const size = lineOf(source, node.getEnd()) - line + 1;
      if (size > functionLimit) largeFunctions.push({ name: nameOf(node, source), file, line, size });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

for (const { file, lines } of largeFiles) console.log(`file over ${fileLimit} lines: ${file} (${lines} lines)`);
for (const { name, file, line, size } of largeFunctions) {
  console.log(`function over ${functionLimit} lines: ${name} at ${file}:${line} (${size} lines)`);
}
if (largeFiles.length > 0 || largeFunctions.length > 0) {
  console.log('split them: a long function into named steps, a long file into files named after their main export');
  process.exitCode = 1;
} else {
  console.log(`sizes: ${files.length} files, none over ${fileLimit} lines, no function over ${functionLimit} lines`);
}
