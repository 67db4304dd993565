// The scripted agent of report.bench.mjs: a case run as a real one looks in a report — a
// Markdown response of about 1,500 characters, eight tool calls with commands and outputs, and two
// output files — printed as Skeval JSONL trace events. Every third case fails its regex check.
import { readFileSync, writeFileSync } from 'node:fs';

const prompt = readFileSync(process.argv[2], 'utf8');
const number = Number(/case (\d+)/.exec(prompt)?.[1] ?? '0');
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const listing = Array.from({ length: 12 }, (_, index) => `src/module-${index}.ts  ${1200 + index * 37} bytes`).join(
  '\n',
);

emit({ type: 'message', role: 'user', text: prompt });
for (let call = 1; call <= 8; call += 1) {
  const command = `grep -rn "handler${call}" src/ --include=*.ts | head -20`;
  emit({ type: 'tool_call', id: `t${call}`, name: 'bash', kind: 'shell', arguments: { command }, command });
  emit({ type: 'tool_result', id: `t${call}`, output: `${listing}\n(exit 0)`.slice(0, 500), is_error: false });
}
const report = `# Report for case ${number}\n\n${'The change touches the request handler and its tests. '.repeat(30)}\n`;
writeFileSync('report.md', report);
writeFileSync(
  'result.json',
  JSON.stringify({ case: number, ok: number % 3 !== 0, items: Array.from({ length: 40 }, (_, i) => i) }),
);
emit({ type: 'usage', input_tokens: 4200 + number, output_tokens: 640 });
emit({
  type: 'final',
  text: [
    `## Case ${number}: done`,
    '',
    'I changed the handler and ran the tests:',
    '',
    ...Array.from(
      { length: 8 },
      (_, index) => `- step ${index + 1}: looked at \`src/module-${index}.ts\` and updated the call sites`,
    ),
    '',
    '```ts',
    'export function handler(request: Request): Response {',
    '  return new Response(JSON.stringify({ ok: true }), { status: 200 });',
    '}',
    '```',
    '',
    '| file | lines changed |',
    '|---|---|',
    ...Array.from({ length: 6 }, (_, index) => `| src/module-${index}.ts | ${index * 3 + 2} |`),
    '',
    number % 3 === 0 ? 'Result: something went wrong.' : 'Result: all tests pass.',
  ].join('\n'),
});
