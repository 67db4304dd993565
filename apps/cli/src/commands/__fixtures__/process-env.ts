/**
 * Sets variables of this process's environment (what the SDKs and the judge set-up read); the
 * function it returns puts back what each was before, or removes it where it was unset.
 */
export function setProcessEnv(values: Record<string, string>): () => void {
  const before = Object.keys(values).map((key): [string, string | undefined] => [key, process.env[key]]);
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of before) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
