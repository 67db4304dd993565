import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  describeZodIssue,
  formatPointer,
  type MatrixEntry,
  matrixFileSchema,
  matrixListSchema,
  SkevalError,
  valueAt,
} from '@skeval/schema/internal';
import { isMap, isNode, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';

/** Where a matrix came from, for messages: a `--matrix` file, a config file's `matrix`, or repeated flags. */
export interface MatrixSource {
  /** The file named in messages. */
  label: string;
  /** The text, to locate issues by line and column (absent for flags). */
  locate?: (path: ReadonlyArray<string | number>) => string;
  /** Where an entry's relative `agentBin` and `agentCommand` files are read from. */
  baseDir: string;
}

const entryExample =
  '{ "name": "claude-sonnet", "agent": "claude-code", "model": "sonnet" } or { "name": "scripted", "agent": "command", "agentCommand": "node agent.mjs {prompt_file}" }';

/**
 * Reads a `--matrix <file>` (JSON or YAML: the list of configurations, or an object with it under
 * `matrix`). Every problem is reported at once, each at its place in the file with the fix.
 */
export async function loadMatrixFile(options: { path: string; cwd: string }): Promise<MatrixEntry[]> {
  const file = resolve(options.cwd, options.path);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new SkevalError({
      code: 'usage',
      message: `--matrix ${options.path}: cannot read the file (${error.code ?? error.message}); give a JSON or YAML file listing the configurations, such as [${entryExample}]`,
    });
  });
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    const [first] = document.errors;
    const at = first ? lineCounter.linePos(first.pos[0]) : undefined;
    throw new SkevalError({
      code: 'invalid_input',
      message: `${file}${at ? ` (line ${at.line}, column ${at.col})` : ''}: not JSON or YAML: ${first?.message.split('\n')[0] ?? 'unreadable'}`,
    });
  }
  const value: unknown = document.toJS();
  const locate = (path: ReadonlyArray<string | number>) => {
    const node = nodeAt(document.contents, path);
    const offset = node?.range?.[0];
    if (offset === undefined) return '';
    const { line, col } = lineCounter.linePos(offset);
    return ` (line ${line}, column ${col})`;
  };
  const source: MatrixSource = { label: file, locate, baseDir: dirname(file) };
  const parsed = matrixFileSchema.safeParse(value);
  if (!parsed.success) {
    // The list's own issues say more than "no accepted form": report those of the form the file chose.
    const list = Array.isArray(value) ? value : valueAt(value, ['matrix']);
    const prefix = Array.isArray(value) ? [] : ['matrix'];
    throwIssues(source, list, prefix);
  }
  const entries = Array.isArray(parsed.data) ? parsed.data : (parsed.data?.matrix ?? []);
  return checkMatrix(entries, source, Array.isArray(value) ? [] : ['matrix']);
}

/** Checks a matrix already in memory (a config file's `matrix`): the same rules as a file's. */
export function checkMatrixEntries(
  value: unknown,
  source: MatrixSource,
  prefix: Array<string | number>,
): MatrixEntry[] {
  const parsed = matrixListSchema.safeParse(value);
  if (!parsed.success) throwIssues(source, value, prefix);
  return checkMatrix(parsed.data ?? [], source, prefix);
}

function throwIssues(source: MatrixSource, list: unknown, prefix: Array<string | number>): never {
  const parsed = matrixListSchema.safeParse(list);
  const issues = parsed.success ? [] : parsed.error.issues;
  const lines = issues.map((issue) => {
    const path = [...prefix, ...issue.path.filter((part): part is string | number => typeof part !== 'symbol')];
    const inner = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    const where = formatPointer(path) || 'the file';
    return `${source.label}: ${where}${source.locate?.(path) ?? ''}: ${describeZodIssue(issue, valueAt(list, inner))}`;
  });
  if (lines.length === 0) lines.push(`${source.label}: not a list of configurations`);
  throw new SkevalError({
    code: 'invalid_input',
    message: `${lines.join('\n')}\neach configuration is ${entryExample}`,
  });
}

/** Names unique (folders of one run), `agentCommand` exactly with `agent: command`, relative files resolved. */
function checkMatrix(entries: MatrixEntry[], source: MatrixSource, prefix: Array<string | number>): MatrixEntry[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const at = (key: string) => {
      const path = [...prefix, index, key];
      return `${source.label}: ${formatPointer(path)}${source.locate?.(path) ?? ''}`;
    };
    const folded = entry.name.toLowerCase();
    const earlier = seen.get(folded);
    if (earlier !== undefined)
      problems.push(
        `${at('name')}: ${JSON.stringify(entry.name)} is also the name of configuration ${earlier}; each configuration is a folder of the run, so give each a name of its own, such as "${entry.name}-2"`,
      );
    else seen.set(folded, index);
    if (entry.agent === 'command' && !entry.agentCommand)
      problems.push(`${at('agent')}: agent "command" needs \`agentCommand\`, such as "node agent.mjs {prompt_file}"`);
    if (entry.agent !== 'command' && entry.agentCommand)
      problems.push(
        `${at('agentCommand')}: \`agentCommand\` is for agent "command", not "${entry.agent}"; remove it, or set "agent": "command"`,
      );
  });
  if (problems.length > 0) throw new SkevalError({ code: 'invalid_input', message: problems.join('\n') });
  return entries.map((entry) => ({
    ...entry,
    ...(entry.agentBin?.includes('/') ? { agentBin: resolve(source.baseDir, entry.agentBin) } : {}),
  }));
}

/** The YAML node at a JSON path, to locate an issue. */
function nodeAt(root: unknown, path: ReadonlyArray<string | number>): Node | undefined {
  let current: unknown = root;
  for (const segment of path) {
    if (isSeq(current) && typeof segment === 'number') current = current.items[segment];
    else if (isMap(current)) {
      const pair = current.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      current = pair?.value ?? pair?.key;
    } else return undefined;
  }
  return isNode(current) ? current : undefined;
}
