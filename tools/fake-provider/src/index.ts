export {
  agentProviderEnv,
  codexConfigToml,
  type FakeEndpoints,
  piModelsJson,
  writeHomeFile,
} from './agent-homes.js';
export { type NoisyClaim, type NoisyJudgeOptions, noisyJudge } from './noisy-judge.js';
export {
  type AnthropicMessageOptions,
  type AnthropicToolUse,
  anthropicMessage,
  type FakeReply,
  type OpenAICompletionOptions,
  openaiCompletion,
  providerError,
} from './replies.js';
export {
  type ResponsesCustomToolCall,
  type ResponsesOutputOptions,
  type ResponsesToolCall,
  responsesOutput,
} from './responses-output.js';
export {
  type AgentStep,
  type AnswerStep,
  type ErrorStep,
  type FlakyStep,
  type HangStep,
  type ScriptAgentOptions,
  type ScriptedToolUse,
  scriptAgent,
} from './script-agent.js';
export { conversationText, requestsOfTurn, type ScriptedTurn, scriptTurns } from './script-turns.js';
export {
  type FakeProvider,
  type RecordedRequest,
  type ReplyFunction,
  startFakeProvider,
  type WireFormat,
} from './server.js';
