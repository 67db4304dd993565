export {
  type AnthropicMessageOptions,
  anthropicMessage,
  type FakeReply,
  type OpenAICompletionOptions,
  openaiCompletion,
  providerError,
} from './replies.js';
export {
  type FakeProvider,
  type RecordedRequest,
  type ReplyFunction,
  startFakeProvider,
  type WireFormat,
} from './server.js';
