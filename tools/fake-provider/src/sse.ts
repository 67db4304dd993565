/** A Messages API body as the SSE events Anthropic streams (`incomplete`: stop after the content blocks). */
export function anthropicEvents(message: Record<string, unknown>, options: { incomplete?: boolean } = {}): string {
  const content = (message.content as Array<Record<string, unknown>>) ?? [];
  const usage = message.usage as Record<string, number>;
  const events: Array<[string, unknown]> = [
    [
      'message_start',
      {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } },
      },
    ],
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
      ]);
    } else {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { ...block, input: {} } },
      ]);
      events.push([
        'content_block_delta',
        {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  if (options.incomplete) return serialize(events);
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return serialize(events);
}

function serialize(events: Array<[string, unknown]>): string {
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/**
 * A Chat Completions body as the SSE chunks OpenAI streams (usage in a last chunk; `incomplete`:
 * stop after the deltas, with no finish chunk, usage or `[DONE]`).
 */
export function openaiEvents(completion: Record<string, unknown>, options: { incomplete?: boolean } = {}): string {
  const [choice] = completion.choices as Array<{ message: Record<string, unknown>; finish_reason: string }>;
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
  };
  const chunks: unknown[] = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  ];
  if (typeof choice?.message.content === 'string')
    chunks.push({ ...base, choices: [{ index: 0, delta: { content: choice.message.content }, finish_reason: null }] });
  const toolCalls = (choice?.message.tool_calls as Array<Record<string, unknown>> | undefined) ?? [];
  for (const [index, call] of toolCalls.entries())
    chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }] });
  const data = (list: unknown[]) => list.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('');
  if (options.incomplete) return data(chunks);
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice?.finish_reason ?? 'stop' }] });
  chunks.push({ ...base, choices: [], usage: completion.usage });
  return `${data(chunks)}data: [DONE]\n\n`;
}
