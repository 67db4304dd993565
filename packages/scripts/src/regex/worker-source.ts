/**
 * The regex worker's code (CommonJS, run with `eval: true`). Each job records its index in
 * `progress` before it starts, so the main thread knows which one is stuck when it has to stop
 * the worker. A job is a regular expression or a JSON Schema validation: ajv runs a schema's
 * `pattern`s and `patternProperties` with `RegExp` too, so they belong under the same bound.
 * Ajv is required (from the paths in `workerData.ajv`) before the batch's first job starts: its
 * load time is the worker's, not a pattern's.
 */
export const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const progress = new Int32Array(workerData.progress);
const ajvClasses = {};
const validators = new Map();
const maxErrors = 50;

function ajvClass(draft) {
  if (!ajvClasses[draft]) {
    const loaded = require(workerData.ajv[draft]);
    ajvClasses[draft] = loaded.default || loaded;
  }
  return ajvClasses[draft];
}

// Compiled schemas are kept by their text, each in an Ajv of its own (two schemas may share an $id).
function validatorFor(job) {
  const key = job.draft + '\\0' + job.schema;
  let entry = validators.get(key);
  if (!entry) {
    const Ajv = ajvClass(job.draft);
    try {
      entry = { validate: new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(job.schema)) };
    } catch (error) {
      entry = { compileError: String((error && error.message) || error) };
    }
    validators.set(key, entry);
    if (validators.size > 64) validators.delete(validators.keys().next().value);
  }
  return entry;
}

function validate(job) {
  const entry = validatorFor(job);
  if (entry.compileError !== undefined) return { status: 'bad-schema', message: entry.compileError };
  if (entry.validate(JSON.parse(job.data))) return { status: 'valid' };
  const all = entry.validate.errors || [];
  const errors = all.slice(0, maxErrors).map((error) => (error.instancePath || '(root)') + ' ' + (error.message || 'is invalid'));
  return { status: 'invalid', errors, errorCount: all.length };
}

function match(job, texts) {
  const found = new RegExp(job.pattern, job.flags).exec(texts[job.text]);
  return found ? { status: 'match', index: found.index, match: found[0].slice(0, 500) } : { status: 'no-match' };
}

parentPort.on('message', ({ texts, jobs, base }) => {
  try {
    for (const job of jobs) if (job.kind === 'schema') ajvClass(job.draft);
  } catch {
    // the job that needs it reports why when it runs
  }
  const results = [];
  for (let index = 0; index < jobs.length; index += 1) {
    Atomics.store(progress, 0, base + index);
    const job = jobs[index];
    try {
      results.push(job.kind === 'schema' ? validate(job) : match(job, texts));
    } catch (error) {
      results.push({ status: 'error', message: String((error && error.message) || error) });
    }
  }
  parentPort.postMessage(results);
});
`;
