/** The version of the JSON that `--json` prints; bumped when a field changes meaning or goes. */
const jsonOutputVersion = 1;

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [snakeCase(key), snakeCaseKeys(entry)]));
}

/**
 * What `--json` prints: one casing (snake_case, as the artifacts are) and a `schema_version`.
 * Every command's JSON goes through here.
 */
export function jsonOutput(value: Record<string, unknown>): string {
  const converted = snakeCaseKeys(value);
  const body = converted !== null && typeof converted === 'object' ? converted : {};
  return `${JSON.stringify({ schema_version: jsonOutputVersion, ...body }, null, 2)}\n`;
}
