import { readFileSync } from 'node:fs';

/**
 * The paths of the unix sockets bound on this machine (in Skeval's network namespace), as
 * `/proc/net/unix` lists them. A socket on a read-only mount still accepts connections, so a
 * sandbox without the network covers each one it would show. Abstract sockets (`@name`) belong
 * to the network namespace and are gone with `--unshare-net`.
 */
export function hostSocketPaths(listing = readListing()): string[] {
  const paths = new Set<string>();
  for (const line of listing.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path: the path is all that follows the inode.
    const path = /^\s*\S+:\s+(?:\S+\s+){5}\S+\s+(\/.*)$/.exec(line)?.[1];
    if (path) paths.add(path);
  }
  return [...paths].sort();
}

function readListing(): string {
  try {
    return readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return '';
  }
}
