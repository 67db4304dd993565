/**
 * Every string in a trace, keys included, with where it is (`messages[2].text`,
 * `tool_calls[0].arguments.content`). The trace is walked as plain data, not by its type: a
 * secret can sit in a message, a tool call's arguments, a command, an output or a field no
 * runner fills in, and a hostile trace need not have the shape its type promises.
 *
 * A key is agent text too and may itself be the secret, which evidence must never quote: a key
 * for which `isSafeName` is false is shown by its position (`{key #2}`).
 */
export function traceStrings(
  trace: unknown,
  isSafeName: (key: string) => boolean,
): Array<{ where: string; text: string }> {
  const found: Array<{ where: string; text: string }> = [];
  const seen = new Set<object>();
  const pending: Array<{ where: string; value: unknown }> = [{ where: '', value: trace }];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    const { where, value } = next;
    if (typeof value === 'string') {
      found.push({ where, text: value });
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((entry, index) => {
        pending.push({ where: `${where}[${index}]`, value: entry });
      });
      continue;
    }
    Object.entries(value).forEach(([key, entry], index) => {
      const name = isSafeName(key) ? key : `{key #${index + 1}}`;
      const path = where ? `${where}.${name}` : name;
      found.push({ where: `${path} (its name)`, text: key });
      pending.push({ where: path, value: entry });
    });
  }
  return found;
}
