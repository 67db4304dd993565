import { describe, expect, it } from 'vitest';
import { seatbeltProfile } from './seatbelt-profile.js';

// The macOS profile as text: what it lets the agent read, write and reach. Run everywhere; the
// profile itself is exercised only where sandbox-exec exists (docs/agents.md says what was).

const plan = {
  workspaceDir: '/private/var/folders/x/skeval-case-1/ws',
  homeDir: '/private/var/folders/x/skeval-case-1/home',
  tmpDir: '/private/var/folders/x/skeval-case-1/tmp',
  readable: ['/Users/ada/.npm-global/lib/node_modules'],
  hidden: ['/Users/ada', '/private/var/folders/x'],
  network: 'model' as const,
  loopbackPorts: [3128, 8080],
};

/** The rules of a profile, one a line, in order. */
const rulesOf = (profile: string) => profile.trim().split('\n');

describe('the macOS sandbox-exec profile', () => {
  it('denies by default, then lets the host be read, hides the hidden folders and gives back what must stay readable, in that order', () => {
    const rules = rulesOf(seatbeltProfile(plan));
    expect(rules.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    const read = rules.indexOf('(allow file-read*)');
    const hide = rules.indexOf(
      '(deny file-read* file-write* (subpath "/Users/ada") (subpath "/private/var/folders/x"))',
    );
    const back = rules.indexOf('(allow file-read* (subpath "/Users/ada/.npm-global/lib/node_modules"))');
    expect(read).toBeGreaterThan(0);
    expect(hide).toBeGreaterThan(read);
    expect(back).toBeGreaterThan(hide);
  });

  it('lets the agent write only its workspace, its own home and temporary folder, and the null and tty devices', () => {
    const writes = rulesOf(seatbeltProfile(plan)).filter(
      (rule) => rule.includes('file-write*') && rule.startsWith('(allow'),
    );
    expect(writes).toEqual([
      '(allow file-read* file-write* (subpath "/private/var/folders/x/skeval-case-1/ws") (subpath "/private/var/folders/x/skeval-case-1/home") (subpath "/private/var/folders/x/skeval-case-1/tmp"))',
      '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    ]);
  });

  it('with --network model reaches only the loopback ports of the allowlist', () => {
    const network = rulesOf(seatbeltProfile(plan)).filter((rule) => rule.includes('network'));
    expect(network).toEqual([
      '(allow network-outbound (remote ip "localhost:3128"))',
      '(allow network-outbound (remote ip "localhost:8080"))',
    ]);
  });

  it('with --network none reaches nothing, and with --network on everything', () => {
    expect(seatbeltProfile({ ...plan, network: 'none' })).not.toContain('network');
    expect(rulesOf(seatbeltProfile({ ...plan, network: 'on' }))).toContain('(allow network*)');
  });

  it('quotes a path with quotes and backslashes so it stays one literal', () => {
    const profile = seatbeltProfile({ ...plan, hidden: ['/Users/a"b\\c'] });
    expect(profile).toContain('(deny file-read* file-write* (subpath "/Users/a\\"b\\\\c"))');
  });
});
