export { type AssertIo, assertMain } from './assert-main.js';
export { type RunAssertOptions, runAssert } from './run-assert.js';
