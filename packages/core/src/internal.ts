// Skeval's own helpers for its CLI and tests (`@skeval/core/internal`): terminal text measured,
// cut and wrapped, and colour. Not the documented API (docs/library.md): they change without
// notice, and everything a user renders goes through the reporters of the main entry.
export { createStyle, type Style } from './reporters/style.js';
export { displayWidth, truncate, wrapWords } from './reporters/text-width.js';
// The benchmarks time the process sweep and the macOS profile is shown in docs/agents.md.
export { type SeatbeltPlan, seatbeltProfile } from './session/seatbelt-profile.js';
export { sweepProcesses } from './session/sweep-processes.js';
