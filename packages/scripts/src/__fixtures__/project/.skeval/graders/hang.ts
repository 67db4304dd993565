import { defineScriptGrader } from '../../../../custom/define-script-grader.js';

export default defineScriptGrader({
  description: 'Never answers.',
  handler: () => new Promise(() => setInterval(() => {}, 1000)),
});
