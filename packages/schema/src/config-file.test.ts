import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const committed = new URL('../json-schema/skeval-config.schema.json', import.meta.url);
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(committed, 'utf8')));

describe('skeval-config.schema.json', () => {
  it('accepts a config with every kind of setting', () => {
    const config = {
      $schema: './node_modules/@skeval/schema/json-schema/skeval-config.schema.json',
      agent: 'command',
      agentCommand: 'node agent.mjs {prompt_file}',
      passEnv: ['ANTHROPIC_API_KEY'],
      reporters: ['terminal', 'junit:reports/junit.xml'],
      gates: { minPassRate: 0.8, minDelta: 5, maxErrors: 0 },
      maxCostUsd: 5,
      skills: { greeting: { timeout: 900, gates: { maxErrors: 1 } } },
    };
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['a misspelt key', { concurency: 4 }],
    ['a key a skill cannot set', { skills: { greeting: { agent: 'codex' } } }],
    ['a pass rate in percent', { gates: { minPassRate: 80 } }],
    ['a judge without a provider', { judge: 'claude-sonnet-4-6' }],
  ])('rejects %s', (_name, config) => {
    expect(validate(config)).toBe(false);
  });
});
