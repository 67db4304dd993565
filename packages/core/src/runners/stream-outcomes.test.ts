import { describe, expect, it } from 'vitest';
import { parseClaudeCodeStream } from './claude-code/parse-stream.js';
import { parseCodexStream } from './codex/parse-stream.js';
import { parsePiStream } from './pi/parse-stream.js';

// How a run ended, read from the agents' own streams (lines as the real CLIs print them,
// trimmed): a failure is the stream's reason, whatever the exit code; a failure followed by a
// success is a recovered run; retries are not turns.

const lines = (...events: unknown[]) => events.map((event) => JSON.stringify(event)).join('\n');

describe('Claude Code stream', () => {
  const init = { type: 'system', subtype: 'init', model: 'claude-sonnet-4-5' };
  it('takes the failure from result.is_error with the API status, not from the subtype', () => {
    const parsed = parseClaudeCodeStream(
      lines(
        init,
        {
          type: 'system',
          subtype: 'api_retry',
          attempt: 1,
          max_retries: 2,
          error_status: 401,
          error: 'authentication_failed',
        },
        {
          type: 'result',
          subtype: 'success',
          is_error: true,
          api_error_status: 401,
          result: 'Invalid API key · Fix external API key',
        },
      ),
      '/ws',
      1,
    );
    expect(parsed.failure).toBe('Claude Code failed: Invalid API key · Fix external API key (HTTP 401)');
    expect(parsed.lastRetry).toBe('attempt 1 of 2: HTTP 401 authentication_failed');
  });

  it('reads retries that ended in success as an ordinary run', () => {
    const parsed = parseClaudeCodeStream(
      lines(
        init,
        { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, error_status: 529, error: 'overloaded' },
        { type: 'assistant', message: { model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }] } },
        { type: 'result', subtype: 'success', is_error: false, result: 'Done.', num_turns: 1 },
      ),
      '/ws',
      1,
    );
    expect(parsed.failure).toBeUndefined();
    expect(parsed.finalText).toBe('Done.');
    expect(parsed.trace.model).toBe('claude-sonnet-4-5');
  });

  it('collects permission denials and leaves out empty assistant messages', () => {
    const parsed = parseClaudeCodeStream(
      lines(
        {
          type: 'system',
          subtype: 'permission_denied',
          tool_name: 'Read',
          decision_reason: 'Path is outside allowed working directories',
        },
        { type: 'assistant', message: { content: [{ type: 'text', text: '' }] } },
        { type: 'result', is_error: false, result: 'ok' },
      ),
      '/ws',
      1,
    );
    expect(parsed.permissionDenials).toEqual(['Read: Path is outside allowed working directories']);
    expect(parsed.trace.messages).toEqual([]);
  });
});

describe('Codex stream', () => {
  it('reads "Reconnecting…" followed by a completed turn as a recovered run', () => {
    const parsed = parseCodexStream(
      lines(
        { type: 'thread.started', thread_id: 't' },
        { type: 'turn.started' },
        { type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion)' },
        { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: 'Done.' } },
        { type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 20 } },
      ),
      '/ws',
      1,
      [],
      'gpt-5',
    );
    expect(parsed.failure).toBeUndefined();
    expect(parsed.lastRetry).toMatch(/^Reconnecting\.\.\. 1\/5/);
    expect(parsed.trace.turns).toBe(1);
    expect(parsed.trace.usage.cost_usd).toBeGreaterThan(0);
  });

  it('takes the failure from turn.failed', () => {
    const parsed = parseCodexStream(
      lines(
        { type: 'turn.started' },
        { type: 'error', message: 'unexpected status 401 Unauthorized: Incorrect API key provided' },
        { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized: Incorrect API key provided' } },
      ),
      '/ws',
      1,
    );
    expect(parsed.failure).toBe('Codex failed: unexpected status 401 Unauthorized: Incorrect API key provided');
  });

  it('counts a shell read of a file as a read with its path', () => {
    const parsed = parseCodexStream(
      lines({
        type: 'item.completed',
        item: {
          id: 'c1',
          type: 'command_execution',
          command: "/bin/bash -lc 'sed -n 1,80p .agents/skills/x/SKILL.md'",
          exit_code: 0,
          status: 'completed',
        },
      }),
      '/ws',
      1,
      [{ name: 'x', path: '/ws/.agents/skills/x' }],
    );
    expect(parsed.trace.tool_calls.map((call) => [call.kind, call.paths])).toEqual([
      ['read', ['.agents/skills/x/SKILL.md']],
    ]);
    expect(parsed.trace.skills_read).toEqual(['x']);
  });
});

describe('Pi stream', () => {
  const assistant = (content: unknown[], stopReason = 'stop', errorMessage?: string) => ({
    type: 'message_end',
    message: {
      role: 'assistant',
      content,
      provider: 'fake',
      model: 'claude-sonnet-4-5',
      stopReason,
      ...(errorMessage ? { errorMessage } : {}),
    },
  });

  it('reads stopReason error followed by auto_retry_end success as a recovered run, and the retry is not a turn', () => {
    const parsed = parsePiStream(
      lines(
        { type: 'turn_start' },
        assistant([], 'error', '529 overloaded'),
        { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, errorMessage: '529 overloaded' },
        { type: 'turn_start' },
        assistant([{ type: 'text', text: 'Done.' }]),
        { type: 'auto_retry_end', success: true, attempt: 1 },
      ),
      '/ws',
      1,
    );
    expect(parsed.failure).toBeUndefined();
    expect(parsed.finalText).toBe('Done.');
    expect(parsed.trace.turns).toBe(1);
    expect(parsed.lastRetry).toBe('attempt 1 of 3: 529 overloaded');
    expect(parsed.trace.model).toBe('fake/claude-sonnet-4-5');
  });

  it('takes the failure from the last stopReason error, though Pi exits 0', () => {
    const parsed = parsePiStream(
      lines({ type: 'turn_start' }, assistant([], 'error', '401 invalid x-api-key')),
      '/ws',
      1,
    );
    expect(parsed.failure).toBe('Pi failed: 401 invalid x-api-key');
  });
});
