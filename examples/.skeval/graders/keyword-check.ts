import { defineScriptGrader } from '@skeval/scripts';

interface KeywordConfig {
  keywords?: string[];
}

export default defineScriptGrader({
  description: 'The answer mentions every keyword (by default Paris and France), ignoring case.',
  handler: ({ output, config }) => {
    const keywords = (config as KeywordConfig | undefined)?.keywords ?? ['Paris', 'France'];
    const text = output.toLowerCase();
    const assertions = keywords.map((keyword) => {
      const index = text.indexOf(keyword.toLowerCase());
      return {
        text: `mentions ${keyword}`,
        passed: index !== -1,
        evidence:
          index === -1
            ? `"${keyword}" not found in ${output.length} characters`
            : `"${keyword}" found at character ${index + 1}`,
      };
    });
    const score =
      assertions.length === 0 ? 1 : assertions.filter((assertion) => assertion.passed).length / assertions.length;
    return { score, assertions };
  },
});
