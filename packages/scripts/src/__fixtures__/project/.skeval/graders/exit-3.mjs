process.stderr.write('giving up: the fixture is missing\n');
process.exit(3);
