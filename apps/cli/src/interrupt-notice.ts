/** What the first Ctrl-C has been told to the user, and what the second names. */
interface InterruptNotice {
  /** A command that says itself what stopping does (the run, the review server) sets it, so the signal handler adds no line. */
  said: boolean;
  /** What the second Ctrl-C's one line tells to run to finish (`skeval run --resume <folder>`). */
  resumeHint?: string;
}

declare global {
  // One notice for the process: each command is bundled apart from the bin, so a module-level
  // object would be a copy per bundle.
  var skevalInterruptNotice: InterruptNotice | undefined;
}

globalThis.skevalInterruptNotice ??= { said: false };

/** The process's interrupt notice (see `InterruptNotice`). */
export const interruptNotice: InterruptNotice = globalThis.skevalInterruptNotice;
