/** Environment variables whose values are provider keys, always looked for by `no-secrets`. */
export const providerKeyVariables = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'GITHUB_TOKEN',
  'GH_TOKEN',
];

/** A value that must not appear, with how evidence names it (never by its value). */
export interface Secret {
  label: string;
  value: string;
}

/** Values shorter than this are too common to look for without false alarms (as Skeval's redactor does). */
const minimumSecretLength = 8;

/**
 * The values `no-secrets` looks for: those of the provider key variables and of the variables
 * the config names (8 characters or more), and the config's literal secrets.
 */
export function collectSecrets(
  env: Record<string, string | undefined>,
  config: { secrets?: string[]; env?: string[] },
): Secret[] {
  const names = [...new Set([...providerKeyVariables, ...(config.env ?? [])])];
  const fromEnv = names
    .map((name) => ({ label: `the value of ${name}`, value: env[name] ?? '' }))
    .filter(({ value }) => value.length >= minimumSecretLength);
  const listed = (config.secrets ?? []).map((value, index) => ({ label: `listed secret #${index + 1}`, value }));
  return [...fromEnv, ...listed];
}
