import { constants, type NodeGCPerformanceDetail, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { collectHeap, paceHeap } from './heap-pacer.js';

/** The kinds of the garbage collections V8 reports while `work` runs, and a moment after. */
async function collectionsDuring(work: () => Promise<void> | void): Promise<number[]> {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    // A gc entry's kind is in its detail, which Node 20's types do not declare.
    for (const entry of list.getEntries())
      kinds.push((entry as { detail?: NodeGCPerformanceDetail }).detail?.kind ?? 0);
  });
  observer.observe({ entryTypes: ['gc'] });
  await work();
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return kinds;
}

describe('pacing the heap of a long loop', () => {
  it('has V8 collect the old generation, without a warning on stderr', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const { emitWarning } = process;
    const kinds = await collectionsDuring(collectHeap);
    // Warnings are emitted on the next tick: give them one.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
    expect(warnings.map((warning) => warning.message)).toEqual([]);
    expect(process.emitWarning).toBe(emitWarning);
  });

  it('asks for a collection once the heap has grown by 64 MB, and not again until it grows as much', async () => {
    expect(paceHeap()).toBeUndefined();
    // 80 MB of doubles on the heap, kept while the pacer looks.
    const held = new Array<number>(10_000_000).fill(1.5);
    const collection = paceHeap();
    expect(collection).toBeInstanceOf(Promise);
    // While that collection runs, no second is asked for.
    expect(paceHeap()).toBeUndefined();
    await collection;
    // What is held now is the new mark: the same heap asks for nothing.
    expect(paceHeap()).toBeUndefined();
    expect(held.length).toBe(10_000_000);
  });
});
