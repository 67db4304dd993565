import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isRecord } from './is-record.js';
import { type FakeReply, providerError } from './replies.js';
import { responsesEvents } from './responses-events.js';
import { anthropicEvents, openaiEvents } from './sse.js';

/** Which API a request came in on: Anthropic Messages, OpenAI Chat Completions or OpenAI Responses. */
export type WireFormat = 'anthropic' | 'openai' | 'responses';

/** One request the server received. */
export interface RecordedRequest {
  format: WireFormat;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export type ReplyFunction = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeProvider {
  /** `http://127.0.0.1:<port>`: Anthropic's `baseURL` (the SDK adds `/v1`). */
  url: string;
  /** `http://127.0.0.1:<port>/v1`: OpenAI's `baseURL` (Chat Completions and Responses). */
  openaiBaseURL: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** Queues replies, answered in order before `respondWith`'s function. */
  enqueue(...replies: FakeReply[]): void;
  /** Answers requests the queue does not cover. */
  respondWith(reply: ReplyFunction): void;
  /** Every request body as JSON, one a line: for grepping what the client sent. */
  requestText(): string;
  /** Whether any request body holds `text`, as sent or escaped as JSON escapes it. */
  bodiesContain(text: string): boolean;
  close(): Promise<void>;
}

// `openaiBaseURL` ends in /v1, so the SDK's `/responses` lands on /v1/responses.
const routes: Record<string, WireFormat> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai',
  '/v1/responses': 'responses',
};
const streamEvents = { anthropic: anthropicEvents, openai: openaiEvents, responses: responsesEvents };

/**
 * Starts a model-provider server on 127.0.0.1 (a free port) that speaks the Anthropic Messages,
 * OpenAI Chat Completions and OpenAI Responses wire formats, plain or streamed (SSE), as each
 * test scripts it.
 * It records every request and can answer with any status, headers, a delay, a hang, a cut-off
 * body or garbage.
 */
export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  let fallback: ReplyFunction = (request) => ({
    status: 500,
    body: providerError(request.format, 'api_error', 'the fake provider has no reply scripted'),
  });
  const open = new Set<ServerResponse>();

  const server = createServer(async (incoming: IncomingMessage, response: ServerResponse) => {
    open.add(response);
    response.on('close', () => open.delete(response));
    const path = (incoming.url ?? '').split('?')[0] ?? '';
    const format = routes[path];
    // A client that hangs up before its body is sent (an agent killed mid-request) made no request.
    const text = await readBody(incoming).catch(() => undefined);
    if (text === undefined) return;
    if (!format) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed)) body = parsed;
    } catch {
      // not JSON: recorded as an empty body
    }
    const request: RecordedRequest = { format, path, headers: incoming.headers, body };
    requests.push(request);
    const reply = queue.shift() ?? (await fallback(request, requests.length - 1));
    await send(response, reply, request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const requestText = () => requests.map((request) => JSON.stringify(request.body)).join('\n');
  return {
    url,
    openaiBaseURL: `${url}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    respondWith: (reply) => {
      fallback = reply;
    },
    requestText,
    bodiesContain: (text) => {
      const all = requestText();
      // A marker with quotes or newlines appears escaped in the JSON, so look for both spellings.
      return all.includes(text) || all.includes(JSON.stringify(text).slice(1, -1));
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() for seconds.
        server.closeAllConnections();
      }),
  };
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function send(response: ServerResponse, reply: FakeReply, request: RecordedRequest): Promise<void> {
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (reply.hang) return; // left open: the client's timeout, or close(), ends it
  const { body } = reply;
  const streaming = request.body.stream === true && isRecord(body) && (reply.status ?? 200) < 300;
  const payload =
    typeof body === 'string'
      ? body
      : streaming
        ? streamEvents[request.format](body, { incomplete: reply.incomplete })
        : JSON.stringify(body ?? {});
  // A string body is sent as JSON, so garbage reaches the SDK's JSON parser as a broken provider's would.
  const contentType = streaming ? 'text/event-stream' : 'application/json';
  response.writeHead(reply.status ?? 200, { 'content-type': contentType, ...reply.headers });
  if (reply.cutOff) {
    response.write(payload.slice(0, Math.max(1, Math.floor(payload.length / 2))));
    response.destroy();
    return;
  }
  response.end(payload);
}
