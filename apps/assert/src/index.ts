// The single-grader runner behind `skeval-assert` and `skeval assert` is built on the grader
// registry of @skeval/scripts; both arrive together.
export {};
