/**
 * An object whose every value is built the first time it is read, then kept: a command builds
 * only the schemas it parses. The keys are known at once (enumerable, so `Object.keys` and
 * `Object.values` see them all; reading every value builds every one).
 */
export function lazyValues<Builders extends Record<string, () => unknown>>(
  builders: Builders,
): { readonly [Key in keyof Builders]: ReturnType<Builders[Key]> } {
  const values = {};
  for (const [key, build] of Object.entries(builders)) {
    Object.defineProperty(values, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = build();
        Object.defineProperty(values, key, { value, enumerable: true });
        return value;
      },
    });
  }
  // The getters above hold exactly the builders' keys and, once read, their results.
  return values as { readonly [Key in keyof Builders]: ReturnType<Builders[Key]> };
}

/** A value built on the first call, then kept: a schema that a command may never parse. */
export function lazyValue<Value>(build: () => Value): () => Value {
  let built: { value: Value } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
