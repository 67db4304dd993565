// An agentv-style grader: it reads its payload and prints its result itself.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { output } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
process.stdout.write(JSON.stringify({ score: output.includes('Paris') ? 1 : 0, assertions: [{ text: 'mentions Paris', passed: output.includes('Paris') }] }));
