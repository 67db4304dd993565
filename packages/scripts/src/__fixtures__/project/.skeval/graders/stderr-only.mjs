process.stderr.write('I only talk on stderr\n');
