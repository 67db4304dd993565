import { describe, expect, it } from 'vitest';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { RunResult } from '../runners/types.js';
import { hiddenPathHint, offlineHint } from './failure-hints.js';

const failed = (message: string): RunResult => ({
  status: 'error',
  finalText: '',
  trace: createTraceBuilder('codex').finish('', 0, '/tmp/skeval-case-1/ws'),
  durationMs: 0,
  error: { code: 'agent_failed', message },
});
const places = { hidden: ['/home/ada', '/tmp'], visible: ['/tmp/skeval-case-1/ws', '/tmp/skeval-case-1/home'] };

describe('what a failed run is told', () => {
  it('names the hidden path a CLI could not reach and --sandbox-mount', () => {
    const run = hiddenPathHint(failed("Cannot find module '/home/ada/.nvm/lib/node_modules/x/index.js'"), places);
    expect(run.error?.message).toContain(
      '(the sandbox hides /home/ada/.nvm/lib/node_modules/x/index.js; if the agent needs it, pass --sandbox-mount /home/ada/.nvm/lib/node_modules/x/index.js, or the folder it is in)',
    );
  });

  it("leaves alone an error that names only the case run's own folders", () => {
    const message = 'ENOENT: /tmp/skeval-case-1/ws/missing.txt';
    expect(hiddenPathHint(failed(message), places).error?.message).toBe(message);
  });

  it('says with --network none that the model was out of reach, only for an agent with an endpoint', () => {
    expect(offlineHint(failed('Connection error.'), ['http://127.0.0.1:9/']).error?.message).toBe(
      'Connection error. (--network none: the agent cannot reach its model at http://127.0.0.1:9/ either; the default --network model lets it reach its model and nothing else)',
    );
    expect(offlineHint(failed('exit 1'), []).error?.message).toBe('exit 1');
  });
});
