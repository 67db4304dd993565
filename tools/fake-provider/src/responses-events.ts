import { isRecord } from './is-record.js';

/**
 * A Responses API body as the SSE events OpenAI streams: `response.created`,
 * `response.in_progress`, each output item from `response.output_item.added` through its deltas
 * to `response.output_item.done`, then `response.completed` (left out when `incomplete`).
 * Every event carries its `type` and a `sequence_number`.
 */
export function responsesEvents(response: Record<string, unknown>, options: { incomplete?: boolean } = {}): string {
  const events: Array<[string, Record<string, unknown>]> = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    events.push([type, { type, sequence_number: events.length, ...data }]);
  // Clients build their snapshot from `response.created`, so it carries the response as it starts.
  const started = { ...response, status: 'in_progress', output: [], usage: null };
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  const output = Array.isArray(response.output) ? response.output.filter(isRecord) : [];
  output.forEach((item, output_index) => {
    const item_id = item.id;
    const at = { item_id, output_index };
    if (item.type === 'message') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const parts = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
      parts.forEach((part, content_index) => {
        const text = typeof part.text === 'string' ? part.text : '';
        const inPart = { ...at, content_index };
        emit('response.content_part.added', { ...inPart, part: { ...part, text: '' } });
        for (const delta of chunks(text)) emit('response.output_text.delta', { ...inPart, delta, logprobs: [] });
        emit('response.output_text.done', { ...inPart, text, logprobs: [] });
        emit('response.content_part.done', { ...inPart, part });
      });
    } else if (item.type === 'function_call') {
      const args = typeof item.arguments === 'string' ? item.arguments : '';
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of chunks(args)) emit('response.function_call_arguments.delta', { ...at, delta });
      emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: args });
    } else if (item.type === 'custom_tool_call') {
      const input = typeof item.input === 'string' ? item.input : '';
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
      for (const delta of chunks(input)) emit('response.custom_tool_call_input.delta', { ...at, delta });
      emit('response.custom_tool_call_input.done', { ...at, input });
    } else if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      const summary = Array.isArray(item.summary) ? item.summary.filter(isRecord) : [];
      summary.forEach((part, summary_index) => {
        const text = typeof part.text === 'string' ? part.text : '';
        const inPart = { ...at, summary_index };
        emit('response.reasoning_summary_part.added', { ...inPart, part: { ...part, text: '' } });
        for (const delta of chunks(text)) emit('response.reasoning_summary_text.delta', { ...inPart, delta });
        emit('response.reasoning_summary_text.done', { ...inPart, text });
        emit('response.reasoning_summary_part.done', { ...inPart, part });
      });
    } else {
      // Any other item (a test's own) is announced whole: added, then done.
      emit('response.output_item.added', { output_index, item });
    }
    emit('response.output_item.done', { output_index, item });
  });
  if (!options.incomplete) emit('response.completed', { response });
  return events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/** Text in up to three deltas, so clients that only keep the first or the last delta are caught. */
function chunks(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
