import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Where a fake provider listens, as an agent's configuration names it. */
export interface FakeEndpoints {
  /** The Anthropic Messages endpoint (no `/v1`). */
  url: string;
  /** The OpenAI endpoint, `/v1` included. */
  openaiBaseURL: string;
}

/**
 * The environment a real agent CLI needs to reach a fake provider: Claude Code's endpoint and
 * key, and the keys that the Codex and Pi configurations below name (`FAKE_OPENAI_KEY`,
 * `FAKE_ANTHROPIC_KEY`). Every key is made up; none is accepted anywhere else.
 */
export function agentProviderEnv(fake: FakeEndpoints): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef',
    FAKE_OPENAI_KEY: 'sk-test-openai-0123456789',
    FAKE_ANTHROPIC_KEY: 'sk-ant-fake-0123456789abcdef',
  };
}

/** Codex's `~/.codex/config.toml`: model gpt-5 from a provider `fake` on the fake's Responses API. */
export function codexConfigToml(fake: FakeEndpoints): string {
  const provider = `[model_providers.fake]\nname = "Fake"\nbase_url = "${fake.openaiBaseURL}"\nwire_api = "responses"\nenv_key = "FAKE_OPENAI_KEY"\n`;
  return `model = "gpt-5"\nmodel_provider = "fake"\n\n${provider}`;
}

/**
 * Pi's `~/.pi/agent/models.json`: a provider `fake` on the fake's Anthropic Messages endpoint
 * with one model, `claude-sonnet-4-5`, shown as `modelName`.
 */
export function piModelsJson(fake: FakeEndpoints, modelName = 'Fake Sonnet'): string {
  const model = {
    id: 'claude-sonnet-4-5',
    name: modelName,
    reasoning: false,
    input: ['text'],
    contextWindow: 200000,
    maxTokens: 8192,
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  };
  const providers = {
    fake: { baseUrl: fake.url, api: 'anthropic-messages', apiKey: 'FAKE_ANTHROPIC_KEY', models: [model] },
  };
  return JSON.stringify({ providers });
}

/** Writes `text` to `home`/`path`, making the folders on the way. */
export async function writeHomeFile(home: string, path: string, text: string): Promise<void> {
  const file = join(home, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
