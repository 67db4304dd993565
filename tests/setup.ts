// Tests run with no provider keys, so nothing can reach a paid model by accident.
for (const name of [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_BASE_URL',
]) {
  delete process.env[name];
}
