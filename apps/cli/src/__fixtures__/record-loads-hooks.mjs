import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  if (file && url.startsWith('file:')) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
