import { defineScriptGrader } from '../../../../custom/define-script-grader.js';

export default defineScriptGrader({
  description: 'Returns an agentv v5 result.',
  handler: ({ output }) => ({ pass: output.length > 0, reason: 'non-empty', checks: [{ name: 'non-empty', pass: output.length > 0, reason: `${output.length} characters` }] }),
});
