// Set.prototype.union as Node 22 has it, for gitlab-ci-local's bundle on Node 20 (loaded with
// --import by engine-validators.ts); a Node that has it keeps its own.
if (typeof Set.prototype.union !== 'function') {
  Object.defineProperty(Set.prototype, 'union', {
    value(other) {
      const union = new Set(this);
      for (const value of other.keys()) union.add(value);
      return union;
    },
    writable: true,
    configurable: true,
  });
}
