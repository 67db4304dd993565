export { startFakeProvider, type FakeProvider, type RecordedRequest, type ReplyFunction, type WireFormat } from './server.js';
export { anthropicMessage, openaiCompletion, providerError, type AnthropicMessageOptions, type FakeReply, type OpenAICompletionOptions } from './replies.js';
