process.stdout.write('PASS!!! definitely passed\n');
