/**
 * Whether a value is a JSON object (not null, not an array). Request and reply bodies arrive as
 * `unknown`; this guard lets the helpers read them without casts.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
