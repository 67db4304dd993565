/** A message in a conversation with a model. */
export type ModelMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string; isError?: boolean };

/** A tool the model may call: a name, what it does, and a JSON Schema for its input. */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInputTokens: number;
}

export interface GenerateRequest {
  system: string;
  messages: ModelMessage[];
  tools?: ModelTool[];
  /**
   * Ask for one JSON value of this shape: a forced tool call on Anthropic, a strict JSON
   * schema response format on OpenAI, JSON mode plus tolerant extraction elsewhere. The value
   * lands in `GenerateResult.json`.
   */
  responseSchema?: { name: string; description: string; schema: Record<string, unknown> };
  maxTokens: number;
  temperature?: number;
  /** This call's time limit in ms, in place of the model's own (`timeoutMs` when it was created). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

export interface GenerateResult {
  text: string;
  toolCalls: ModelToolCall[];
  /** With `responseSchema`: the JSON value the model produced (not yet validated), or undefined when none could be read. */
  json?: unknown;
  usage: ModelUsage;
  finishReason: FinishReason;
}

/** One model behind one provider, as the judge and the built-in agent loop use it. */
export interface LanguageModel {
  /** `anthropic`, `openai`, `ollama`, … */
  provider: string;
  model: string;
  /** How structured output is asked for: decides how `responseSchema` is sent. */
  structuredOutput: 'tool' | 'json-schema' | 'json-mode';
  /** The model's context window in tokens. */
  contextTokens: number;
  /** The endpoint requests go to; part of the judge's cache key. */
  baseURL?: string;
  /**
   * The variable a key is read from, when the provider needs a key and none was found: requests
   * would fail, so a run checks this before any agent starts.
   */
  missingKey?: string;
  generate(request: GenerateRequest): Promise<GenerateResult>;
}
