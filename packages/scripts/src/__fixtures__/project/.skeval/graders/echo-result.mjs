// Prints `config.result` as its result: a stand-in for a grader whose result is hostile.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
process.stdout.write(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')).config.result));
