import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeReply, providerError } from './replies.js';
import { anthropicEvents, openaiEvents } from './sse.js';

export type WireFormat = 'anthropic' | 'openai';

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
  /** `http://127.0.0.1:<port>/v1`: OpenAI's `baseURL`. */
  openaiBaseURL: string;
  /** Every request, in order. */
  requests: RecordedRequest[];
  /** Queues replies, answered in order before `respondWith`'s function. */
  enqueue(...replies: FakeReply[]): void;
  /** Answers requests the queue does not cover. */
  respondWith(reply: ReplyFunction): void;
  close(): Promise<void>;
}

const routes: Record<string, WireFormat> = { '/v1/messages': 'anthropic', '/v1/chat/completions': 'openai' };

/**
 * Starts a model-provider server on 127.0.0.1 (a free port) that speaks the Anthropic Messages
 * and OpenAI Chat Completions wire formats, plain or streamed (SSE), as each test scripts it.
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
    const text = await readBody(incoming);
    if (!format) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // recorded as sent: an empty body
    }
    const request: RecordedRequest = { format, path, headers: incoming.headers, body };
    requests.push(request);
    const reply = queue.shift() ?? (await fallback(request, requests.length - 1));
    await send(response, reply, request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBaseURL: `${url}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    respondWith: (reply) => {
      fallback = reply;
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
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function send(response: ServerResponse, reply: FakeReply, request: RecordedRequest): Promise<void> {
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (reply.hang) return; // left open: the client's timeout, or close(), ends it
  const streaming = request.body.stream === true && typeof reply.body === 'object' && (reply.status ?? 200) < 300;
  const payload =
    typeof reply.body === 'string'
      ? reply.body
      : streaming
        ? (request.format === 'anthropic' ? anthropicEvents : openaiEvents)(reply.body as Record<string, unknown>)
        : JSON.stringify(reply.body ?? {});
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
