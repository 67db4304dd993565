import type { ToolCall } from '@skeval/schema';
import type { BlockedConnection } from './egress-gate.js';

/** A blocked connection as `context-manifest.json` records it. */
export interface BlockedRecord extends BlockedConnection {
  /** The tool call that tried it (`#3 Bash curl …`), where its command or arguments name the place. */
  tool_call?: string;
}

const shorten = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/**
 * Each blocked connection with the tool call that tried it: the first call whose command line
 * (or arguments) names its `host:port`, or its host where the port is the scheme's default. A
 * connection no call names (the agent's own code, a library) is recorded without one.
 */
export function attributeBlocked(blocked: readonly BlockedConnection[], calls: readonly ToolCall[]): BlockedRecord[] {
  const texts = calls.map((call) => call.command ?? JSON.stringify(call.arguments));
  return blocked.map((connection) => {
    const host = connection.host.includes(':') ? `[${connection.host}]` : connection.host;
    const names = [`${host}:${connection.port}`, ...([80, 443].includes(connection.port) ? [host] : [])];
    const index = texts.findIndex((text) => names.some((name) => text.includes(name)));
    const call = calls[index];
    return call
      ? { ...connection, tool_call: `#${index + 1} ${call.name} ${shorten(texts[index] ?? '')}` }
      : connection;
  });
}

/** `127.0.0.1:4567 (#2 Bash curl -s http://127.0.0.1:4567/)`, as reports show it. */
export function describeBlocked(record: BlockedRecord): string {
  const host = record.host.includes(':') ? `[${record.host}]` : record.host;
  return `${host}:${record.port}${record.tool_call ? ` (${record.tool_call})` : ''}`;
}
