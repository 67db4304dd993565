import { defineScriptGrader } from '../../../../custom/define-script-grader.js';

export default defineScriptGrader({
  description: 'Puts the payload it received into its evidence.',
  handler: (payload) => ({ score: 1, assertions: [{ text: 'payload', passed: true, evidence: JSON.stringify(payload) }] }),
});
