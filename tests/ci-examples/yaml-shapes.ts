// Reading parsed YAML without casts: each accessor checks the shape it expects and names the
// place when the file has something else, so a broken example fails with where it broke.

export type Mapping = Record<string, unknown>;

export function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mapping(value: unknown, where: string): Mapping {
  if (!isMapping(value)) throw new Error(`${where}: expected a mapping, found ${JSON.stringify(value)}`);
  return value;
}

export function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where}: expected a list, found ${JSON.stringify(value)}`);
  return value;
}

export function text(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`${where}: expected a string, found ${JSON.stringify(value)}`);
}

export function optionalText(value: unknown, where: string): string | undefined {
  return value === undefined || value === null ? undefined : text(value, where);
}

/** A mapping of scalars (an `env:` or `with:` block) as strings. */
export function strings(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  return Object.fromEntries(
    Object.entries(mapping(value, where)).map(([key, item]) => [key, text(item, `${where}.${key}`)]),
  );
}

/** The built CLI, as `npx skeval` runs it in a project that installed @skeval/cli. */
export function withBuiltCli(script: string, cliPath: string): string {
  return script.replace(/\bnpx skeval\b/g, `node '${cliPath}'`);
}

/** Every `skeval <command>` a script runs, each with the words on its line and the lines it continues onto. */
export function skevalCommands(script: string): string[] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /\bskeval\s+[a-z]/.test(line));
}
