import { defineScriptGrader } from '../../../../custom/define-script-grader.js';

export default defineScriptGrader({
  description: 'Throws.',
  handler: () => {
    throw new Error('boom in the handler');
  },
});
