// Requests the judge sends per case run, and its prompt size (instructions versus material and
// claims), for 1, 5 and 40 judged assertions, through the real OpenAI SDK against the local fake
// provider. For contrast: a grader that asks once per assertion sends N requests.

import { createModel, judgeCase } from '../packages/judge/dist/index.js';
import { buildJudgePrompt } from '../packages/judge/dist/internal.js';
import { anthropicMessage, startFakeProvider } from '../tools/fake-provider/dist/index.js';

const fake = await startFakeProvider();
fake.respondWith((request) => {
  const user = request.body.messages[0].content;
  const ids = [...user.matchAll(/- id "(c\d+)"/g)].map((match) => match[1]);
  const verdicts = ids.map((id) => ({
    id,
    verdict: 'fail',
    evidence: 'not shown in the material',
    quote: null,
    source: null,
  }));
  return { body: anthropicMessage({ toolUse: { name: 'record_verdicts', input: { verdicts } } }) };
});
const model = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'bench', baseURL: fake.url });
const base = {
  prompt: 'Write a release note for version 2.0 into RELEASE.md and summarise it.',
  expectedOutput: 'RELEASE.md lists the breaking changes first.',
  response: 'I wrote RELEASE.md. Breaking changes come first, then features and fixes. '.repeat(20),
  files: [
    { path: 'RELEASE.md', size: 2400, excerpt: '# 2.0\n\n## Breaking changes\n- The config file moved.\n'.repeat(30) },
  ],
};

console.log('claims  requests (batched)  requests (one per claim)  instructions chars  material+claims chars');
for (const count of [1, 5, 40]) {
  const claims = Array.from({ length: count }, (_, index) => ({
    id: `c${index + 1}`,
    text: `Claim ${index + 1}: the note states requirement ${index + 1} clearly`,
  }));
  const input = { ...base, claims };
  const before = fake.requests.length;
  const result = await judgeCase(input, { model, cache: false });
  const sent = fake.requests.length - before;
  const { sizes } = buildJudgePrompt(input);
  // The contrast, measured: the same claims asked one call each.
  const perClaimBefore = fake.requests.length;
  for (const claim of claims) await judgeCase({ ...base, claims: [claim] }, { model, cache: false });
  const perClaim = fake.requests.length - perClaimBefore;
  console.log(
    `${String(count).padStart(6)}  ${String(sent).padStart(18)}  ${String(perClaim).padStart(24)}  ${String(sizes.instructionChars).padStart(18)}  ${String(sizes.contentChars).padStart(21)}   (calls recorded: ${result.calls})`,
  );
}
await fake.close();
