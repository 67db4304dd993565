import { defineScriptGrader } from '../../../../custom/define-script-grader.js';
import { countWords } from './helpers/count-words.js';

interface Config {
  word: string;
}

export default defineScriptGrader({
  description: 'The answer mentions the configured word.',
  handler: ({ output, config }) => {
    const { word } = config as unknown as Config;
    const passed = output.includes(word);
    return { score: passed ? 1 : 0, assertions: [{ text: `mentions ${word}`, passed, evidence: `${countWords(output)} words searched` }] };
  },
});
