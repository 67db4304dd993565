const chunk = 'x'.repeat(1024 * 1024);
for (let index = 0; index < 100; index += 1) process.stdout.write(chunk);
