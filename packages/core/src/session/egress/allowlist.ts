import { type AllowedHost, parseAllowHost } from '@skeval/schema/internal';

/** Where a model endpoint's URL leads: its host and port (the scheme's default when it names none). */
export function endpointOf(url: string): AllowedHost | undefined {
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port || (parsed.protocol === 'http:' ? 80 : parsed.protocol === 'https:' ? 443 : 0));
    if (!port || !parsed.hostname) return undefined;
    return { host: parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
  } catch {
    return undefined;
  }
}

/** `--allow-host` entries read; an entry that is not `host[:port]` is skipped (the flag and the config reject it earlier). */
export function readAllowHosts(entries: readonly string[]): AllowedHost[] {
  return entries.flatMap((entry) => {
    const parsed = parseAllowHost(entry);
    return 'problem' in parsed ? [] : [parsed];
  });
}

/** Whether a connection to `host:port` is on the list: the same host (or a subdomain of a `*.` entry), and its port if the entry names one. */
export function isAllowed(allowed: readonly AllowedHost[], host: string, port: number): boolean {
  const target = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  return allowed.some((entry) => {
    if (entry.port !== undefined && entry.port !== port) return false;
    if (entry.host.startsWith('*.')) return target.endsWith(entry.host.slice(1));
    return entry.host === target;
  });
}

/** Whether a host is this machine's loopback: reached inside the sandbox only through a forwarder. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
