// What the report benchmarks share: the skill whose cases the scripted report agent
// (report-agent.mjs) answers, and Debian's headless Chromium for the first render, launched as
// the report package's browser tests launch it (packages/report/src/__fixtures__/chromium-launch.json).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Writes `<root>/<name>/` with a SKILL.md and `cases` cases of five assertions; returns its path. */
export function writeReportSkill({ root, name, cases }) {
  const skill = join(root, name);
  mkdirSync(join(skill, 'evals'), { recursive: true });
  writeFileSync(
    join(skill, 'SKILL.md'),
    `---\nname: ${name}\ndescription: A skill for the report benchmarks.\n---\n\nFix the handler.\n`,
  );
  writeFileSync(
    join(skill, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: name,
      evals: Array.from({ length: cases }, (_, index) => ({
        id: index + 1,
        prompt: `Fix the request handler, case ${index + 1}.`,
        expected_output: 'The handler returns 200 and the tests pass.',
        assertions: [
          { type: 'file-exists', path: 'report.md' },
          { type: 'json-valid', path: 'result.json' },
          { type: 'regex-match', pattern: 'all tests pass', target: 'assistant-text' },
          { kind: 'output', method: 'contains', value: 'handler' },
          'The response explains which files changed',
        ],
      })),
    }),
  );
  return skill;
}

/** How Chromium is launched headless: the report package's browser tests read the same file. */
const chromiumLaunch = JSON.parse(
  readFileSync(new URL('../packages/report/src/__fixtures__/chromium-launch.json', import.meta.url), 'utf8'),
);

/** Headless Chromium through the report package's playwright-core, or undefined (said why) without it. */
export async function launchChromium() {
  if (!existsSync(chromiumLaunch.executablePath)) {
    console.log(`first render: not measured, no ${chromiumLaunch.executablePath} (apt-get install chromium)`);
    return undefined;
  }
  // playwright-core is the report package's (dev) dependency: load it from there.
  const from = createRequire(new URL('../packages/report/package.json', import.meta.url));
  const { chromium } = from('playwright-core');
  return chromium.launch(chromiumLaunch);
}
