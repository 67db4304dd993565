/**
 * An entry of the network allowlist as written: a host name (`pypi.org`), a wildcard for its
 * subdomains (`*.example.com`), an IPv4 address or a bracketed IPv6 one, each with an optional
 * `:port` (without one, every port of that host).
 */
export const allowHostPattern =
  /^(?:(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** What a malformed entry is told. */
export const allowHostError = 'write host or host:port, such as pypi.org, *.npmjs.org or 127.0.0.1:8080';

/** An allowlist entry read: the host in lower case (IPv6 without brackets), and its port, if one is named. */
export interface AllowedHost {
  host: string;
  port?: number;
}

/**
 * Reads `host[:port]`, or says what is wrong with it. A port must be 1 to 65535; a URL is read
 * as its host and port (`https://pypi.org` is `pypi.org:443`).
 */
export function parseAllowHost(text: string): AllowedHost | { problem: string } {
  const trimmed = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : 0));
      return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), ...(port ? { port } : {}) };
    } catch {
      return { problem: `\`${text}\` is not a URL Skeval can read; write host or host:port, such as pypi.org:443` };
    }
  }
  if (!allowHostPattern.test(trimmed)) return { problem: `\`${text}\` is not host or host:port; ${allowHostError}` };
  const bracket = trimmed.startsWith('[') ? trimmed.indexOf(']') : -1;
  const colon = bracket === -1 ? trimmed.lastIndexOf(':') : trimmed.indexOf(':', bracket);
  const host = bracket === -1 ? (colon === -1 ? trimmed : trimmed.slice(0, colon)) : trimmed.slice(1, bracket);
  const portText = colon === -1 ? undefined : trimmed.slice(colon + 1);
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) return { problem: `\`${text}\`: the port must be 1 to 65535` };
  return { host: host.toLowerCase(), ...(port === undefined ? {} : { port }) };
}

/** `host[:port]` as written back: IPv6 in brackets. */
export function formatAllowedHost(entry: AllowedHost): string {
  const host = entry.host.includes(':') ? `[${entry.host}]` : entry.host;
  return entry.port === undefined ? host : `${host}:${entry.port}`;
}
