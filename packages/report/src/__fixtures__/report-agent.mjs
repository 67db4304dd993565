#!/usr/bin/env node
// A scripted agent for the report's tests (the `command` runner): each case's prompt picks a
// behaviour — a greeting with files and Markdown, a hostile response, a crash, a flaky answer —
// printed as Skeval JSONL trace events. Deterministic and offline.
import { readFileSync, writeFileSync } from 'node:fs';

const prompt = readFileSync(process.argv[2], 'utf8');
const skills = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]');
const skill = skills.find((entry) => entry.name === 'report-skill');
const run = Number(process.env.SKEVAL_RUN ?? '1');
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const tool = (id, name, kind, args, output, extra = {}) => {
  emit({ type: 'tool_call', id, name, kind, arguments: args, ...extra });
  emit({ type: 'tool_result', id, output, is_error: false });
};
// A 2×2 red PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR4nGP4z8DwHwyBNAMDAEr8B/mLEX4vAAAAAElFTkSuQmCC',
  'base64',
);

emit({ type: 'message', role: 'user', text: prompt });
if (/crash/i.test(prompt)) {
  process.stderr.write('the agent fell over on purpose\n');
  process.exit(3);
}
if (/greeting/i.test(prompt)) {
  if (skill)
    tool('t1', 'read_file', 'read', { path: `${skill.path}/SKILL.md` }, 'name: report-skill', {
      paths: [`${skill.path}/SKILL.md`],
    });
  const text = skill ? 'Hello, Ada!\n' : 'Hi Ada :)\n';
  writeFileSync('greeting.txt', text);
  writeFileSync('card.png', png);
  writeFileSync('blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]));
  tool('t2', 'write_file', 'write', { path: 'greeting.txt', content: text }, `wrote ${text.length} bytes`, {
    paths: ['greeting.txt'],
  });
  tool('t3', 'bash', 'shell', { command: 'ls -la' }, 'greeting.txt\ncard.png\nblob.bin', { command: 'ls -la' });
  emit({ type: 'usage', input_tokens: 500, output_tokens: 80 });
  emit({
    type: 'final',
    text: [
      '## Greeting written',
      '',
      'I wrote **greeting.txt** for Ada, and a card:',
      '',
      '- `greeting.txt`: the greeting',
      '- `card.png`: a tiny card',
      '',
      '| file | bytes |',
      '|---|---|',
      `| greeting.txt | ${text.length} |`,
      '',
      '![logo](https://example.invalid/logo.png)',
    ].join('\n'),
  });
} else if (/hostile/i.test(prompt)) {
  writeFileSync('page.html', '<script>window.__skevalPwned = "output file"</script>\n');
  tool(
    't1',
    'bash',
    'shell',
    { command: 'echo </script>' },
    '</script><img src=x onerror="window.__skevalPwned=\'trace\'">',
    {
      command: 'echo "</script>"',
    },
  );
  emit({ type: 'usage', input_tokens: 300, output_tokens: 40 });
  emit({
    type: 'final',
    text: 'Done.</script><img src=x onerror="window.__skevalPwned=\'response\'"><script>window.__skevalPwned="script"</script> [click](javascript:window.__skevalPwned=1)',
  });
} else if (/flaky/i.test(prompt)) {
  emit({ type: 'usage', input_tokens: 200, output_tokens: 10 });
  emit({ type: 'final', text: run === 2 ? 'wobbly' : 'steady' });
} else if (/broken check/i.test(prompt)) {
  emit({ type: 'usage', input_tokens: 200, output_tokens: 10 });
  emit({ type: 'final', text: 'A plain answer.' });
} else {
  emit({ type: 'usage', input_tokens: 200, output_tokens: 10 });
  emit({ type: 'final', text: 'The capital of France is Paris.' });
}
