import { skevalConfigSchema } from '@skeval/schema';
import { configKeyHelp, gatesSchema, skillConfigSchema } from '@skeval/schema/internal';
import { describe, expect, it } from 'vitest';
import { agentNames } from '../runners/create-runner.js';

describe('the config schema', () => {
  it('offers the agents there are', () => {
    expect(skevalConfigSchema.shape.agent.unwrap().options).toEqual([...agentNames]);
  });

  it('has help, for messages and editors, for every key', () => {
    const keys = [
      ...Object.keys(skevalConfigSchema.shape),
      ...Object.keys(gatesSchema.shape),
      ...Object.keys(skillConfigSchema.shape),
    ].filter((key) => key !== '$schema');
    expect(keys.filter((key) => !Object.hasOwn(configKeyHelp, key))).toEqual([]);
  });
});
