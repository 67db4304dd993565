import { spawn } from 'node:child_process';

// Starts a grandchild that would outlive a careless timeout, reports its pid, then hangs.
const child = spawn('sleep', ['60'], { stdio: 'ignore' });
process.stderr.write(`grandchild ${child.pid}\n`);
setInterval(() => {}, 1000);
