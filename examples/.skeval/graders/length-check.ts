import { defineScriptGrader } from '@skeval/scripts';

interface LengthConfig {
  min?: number;
  max?: number;
}

export default defineScriptGrader({
  description: 'The answer is between 5 and 50 words (configurable with min and max).',
  handler: ({ output, config }) => {
    const { min = 5, max = 50 } = (config as LengthConfig | undefined) ?? {};
    const words = output.split(/\s+/).filter(Boolean).length;
    const passed = words >= min && words <= max;
    return {
      score: passed ? 1 : 0,
      assertions: [{ text: `between ${min} and ${max} words`, passed, evidence: `${words} words` }],
    };
  },
});
