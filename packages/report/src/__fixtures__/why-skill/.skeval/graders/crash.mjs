// A grader that falls over before printing a result: the report's tests of an errored verdict.
process.stderr.write('TypeError: cannot read the workspace\n');
process.exit(1);
