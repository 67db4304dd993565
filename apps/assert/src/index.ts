export { assertMain, type AssertIo } from './assert-main.js';
export { runAssert, type RunAssertOptions } from './run-assert.js';
