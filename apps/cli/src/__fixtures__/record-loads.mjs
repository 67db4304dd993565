// `node --import ./record-loads.mjs …`: appends the URL of every file module the process loads
// to the file RECORD_LOADS names, one a line.
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url, { data: { file: process.env.RECORD_LOADS } });
