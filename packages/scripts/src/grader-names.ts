// `@skeval/scripts/grader-names`: whether a grader exists, by name, without loading any grader.
// Checking an evals file needs only that; this entry reaches no grader module, so a bundle split
// into chunks (`skeval validate`'s) keeps the graders in the chunk of what grades.

export { graderExists } from './registry/grader-exists.js';
