/** Replaces every secret value Skeval knows with `[redacted:<NAME>]`. */
export interface Redactor {
  /** The names of the variables whose values are redacted (never the values). */
  readonly names: readonly string[];
  redact(text: string): string;
  /** A copy of a JSON-like value with every string redacted. */
  redactDeep<Value>(value: Value): Value;
}

/** Variable names that hold credentials by convention. */
const secretName =
  /(?:^|_)(?:API_KEY|APIKEY|AUTH_TOKEN|OAUTH_TOKEN|ACCESS_TOKEN|TOKEN|SECRET|SECRET_KEY|PASSWORD|KEY)$/;
/** Values shaped like keys: long, no spaces, mostly letters and digits (sk-…, ghp_…, AKIA…). */
const keyShaped = /^[A-Za-z0-9_\-.:/+=]{20,}$/;
/** Values too short or too common to redact without mangling ordinary text. */
const minimumSecretLength = 8;

/** Whether a variable looks like it holds a credential: by its name, or (for values passed on request) its shape. */
export function isSecretVariable(name: string, value: string, options: { byShape?: boolean } = {}): boolean {
  if (value.length < minimumSecretLength) return false;
  return secretName.test(name) || (options.byShape === true && keyShaped.test(value) && /\d/.test(value));
}

/**
 * A redactor for the secrets among `env`: variables named like credentials (`*_API_KEY`,
 * `*_TOKEN`, …), and, among `byShape`, those whose values look like keys. Longer values are
 * replaced first, so a key that contains another is redacted whole.
 */
export function createRedactor(env: NodeJS.ProcessEnv, options: { byShape?: readonly string[] } = {}): Redactor {
  const secrets = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretVariable(name, value, { byShape: options.byShape?.includes(name) ?? false })) secrets.set(value, name);
  }
  const ordered = [...secrets].sort(([a], [b]) => b.length - a.length);
  const redact = (text: string) => {
    let result = text;
    for (const [value, name] of ordered)
      if (result.includes(value)) result = result.replaceAll(value, `[redacted:${name}]`);
    return result;
  };
  const redactDeep = <Value>(value: Value): Value => {
    if (ordered.length === 0) return value;
    return JSON.parse(JSON.stringify(value), (_key, entry: unknown) =>
      typeof entry === 'string' ? redact(entry) : entry,
    );
  };
  return { names: [...new Set(secrets.values())].sort(), redact, redactDeep };
}
