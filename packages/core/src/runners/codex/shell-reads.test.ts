import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from './shell-reads.js';

const shell = { kind: 'shell' };

describe('classifyShellCommand: reads', () => {
  it('reads the file a cat inside /bin/bash -lc names', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat .agents/skills/demo/SKILL.md'")).toEqual({
      kind: 'read',
      paths: ['.agents/skills/demo/SKILL.md'],
    });
  });

  it('unwraps a double-quoted script that contains single quotes', () => {
    expect(classifyShellCommand(`/bin/bash -lc "sed -n '1,200p' packages/core/src/index.ts"`)).toEqual({
      kind: 'read',
      paths: ['packages/core/src/index.ts'],
    });
  });

  it('unescapes a dollar sign escaped inside the double-quoted wrapper', () => {
    expect(classifyShellCommand(`/bin/bash -lc "awk '{print \\$1}' Cargo.toml"`)).toEqual({
      kind: 'read',
      paths: ['Cargo.toml'],
    });
  });

  it('unwraps zsh -lc the same way as bash', () => {
    expect(classifyShellCommand("/bin/zsh -lc 'cat README.md'")).toEqual({ kind: 'read', paths: ['README.md'] });
  });

  it('unwraps sh -c and a bare bash -lc', () => {
    expect(classifyShellCommand("sh -c 'cat README.md'")).toEqual({ kind: 'read', paths: ['README.md'] });
    expect(classifyShellCommand("bash -lc 'cat README.md'")).toEqual({ kind: 'read', paths: ['README.md'] });
  });

  it('classifies a bare script that has no shell wrapper', () => {
    expect(classifyShellCommand('cat webview/README.md')).toEqual({ kind: 'read', paths: ['webview/README.md'] });
  });

  it('reads with bat, batcat, less and more, skipping option values', () => {
    expect(classifyShellCommand("bash -lc 'bat --theme TwoDark README.md'")).toEqual({
      kind: 'read',
      paths: ['README.md'],
    });
    expect(classifyShellCommand('batcat src/main.rs')).toEqual({ kind: 'read', paths: ['src/main.rs'] });
    expect(classifyShellCommand('less -p TODO README.md')).toEqual({ kind: 'read', paths: ['README.md'] });
    expect(classifyShellCommand('more CHANGELOG.md')).toEqual({ kind: 'read', paths: ['CHANGELOG.md'] });
  });

  it('reads with head in the -n N, -nN and bare-file forms', () => {
    expect(classifyShellCommand("/bin/bash -lc 'head -n 50 Cargo.toml'")).toEqual({
      kind: 'read',
      paths: ['Cargo.toml'],
    });
    expect(classifyShellCommand('head -n50 Cargo.toml')).toEqual({ kind: 'read', paths: ['Cargo.toml'] });
    expect(classifyShellCommand('head Cargo.toml')).toEqual({ kind: 'read', paths: ['Cargo.toml'] });
  });

  it('leaves head -5 and head -c alone, as Codex does', () => {
    expect(classifyShellCommand('head -5 Cargo.toml')).toEqual(shell);
    expect(classifyShellCommand('head -c 100 Cargo.toml')).toEqual(shell);
  });

  it('reads with tail, including +N offsets written with or without a space', () => {
    expect(classifyShellCommand("/bin/bash -lc 'tail -n +522 README.md'")).toEqual({
      kind: 'read',
      paths: ['README.md'],
    });
    expect(classifyShellCommand('tail -n+10 README.md')).toEqual({ kind: 'read', paths: ['README.md'] });
    expect(classifyShellCommand('tail -n 30 logs/app.log')).toEqual({ kind: 'read', paths: ['logs/app.log'] });
  });

  it('reads with nl without mistaking an option value for the file', () => {
    expect(classifyShellCommand('nl -ba core/src/parse_command.rs')).toEqual({
      kind: 'read',
      paths: ['core/src/parse_command.rs'],
    });
    expect(classifyShellCommand('/bin/bash -lc "nl -s \'  \' -w 4 src/app.ts"')).toEqual({
      kind: 'read',
      paths: ['src/app.ts'],
    });
  });

  it('reads with sed -n and a line range, given directly or with -e', () => {
    expect(classifyShellCommand('/bin/bash -lc "sed -n \'2000,2200p\' tui/src/history_cell.rs"')).toEqual({
      kind: 'read',
      paths: ['tui/src/history_cell.rs'],
    });
    expect(classifyShellCommand('sed -n -e 10p file.txt')).toEqual({ kind: 'read', paths: ['file.txt'] });
  });

  it('does not treat sed without a plain line range as a read', () => {
    expect(classifyShellCommand('sed -n p file.txt')).toEqual(shell);
    expect(classifyShellCommand("sed 's/a/b/' file.txt")).toEqual(shell);
  });

  it('reads the data file of awk but not its program file', () => {
    expect(classifyShellCommand('awk -F: -f script.awk /etc/passwd')).toEqual({
      kind: 'read',
      paths: ['/etc/passwd'],
    });
  });

  it('accepts a cat operand after -- even when it looks like an option', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat -- ./-strange-file-name'")).toEqual({
      kind: 'read',
      paths: ['./-strange-file-name'],
    });
  });

  it('does not count cat of several files as a read, as Codex does not', () => {
    expect(classifyShellCommand('cat a.txt b.txt')).toEqual(shell);
  });

  it('collects every file of a script made only of reads, once each', () => {
    expect(
      classifyShellCommand("/bin/bash -lc 'cat package.json && sed -n 1,80p src/index.ts; cat package.json'"),
    ).toEqual({ kind: 'read', paths: ['package.json', 'src/index.ts'] });
  });

  it('splits commands on newlines as well as operators', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat a.md\ncat b.md'")).toEqual({
      kind: 'read',
      paths: ['a.md', 'b.md'],
    });
  });
});

describe('classifyShellCommand: cd prefixes', () => {
  it('prefixes a relative read with the directory of a preceding cd', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cd foo && cat foo.txt'")).toEqual({
      kind: 'read',
      paths: ['foo/foo.txt'],
    });
  });

  it('joins successive cds and keeps absolute paths as written', () => {
    expect(classifyShellCommand("bash -lc 'cd packages && cd core && cat package.json'")).toEqual({
      kind: 'read',
      paths: ['packages/core/package.json'],
    });
    expect(classifyShellCommand("bash -lc 'cd /repo && cat /etc/hosts'")).toEqual({
      kind: 'read',
      paths: ['/etc/hosts'],
    });
    expect(classifyShellCommand("bash -lc 'cd /repo && cd sub && cat x.txt'")).toEqual({
      kind: 'read',
      paths: ['/repo/sub/x.txt'],
    });
  });

  it('takes the directory after -- in cd', () => {
    expect(classifyShellCommand('cd -- -weird && cat foo.txt')).toEqual({ kind: 'read', paths: ['-weird/foo.txt'] });
  });

  it('applies the cd prefix to listed and searched paths too', () => {
    expect(
      classifyShellCommand(`/bin/bash -lc 'cd /Users/me/codex && rg -n "codex_api" codex-rs -S | head -n 50'`),
    ).toEqual({ kind: 'search', query: 'codex_api', paths: ['/Users/me/codex/codex-rs'] });
  });

  it('treats a lone cd as a plain shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cd packages/core'")).toEqual(shell);
  });
});

describe('classifyShellCommand: pipelines and helpers', () => {
  it('drops a sed range after cat in a pipeline', () => {
    expect(classifyShellCommand('/bin/bash -lc "cat tui/Cargo.toml | sed -n \'1,200p\'"')).toEqual({
      kind: 'read',
      paths: ['tui/Cargo.toml'],
    });
  });

  it('drops a bare nl after head in a pipeline', () => {
    expect(classifyShellCommand("/bin/bash -lc 'head -n 2 notes.txt | nl'")).toEqual({
      kind: 'read',
      paths: ['notes.txt'],
    });
  });

  it('keeps the file of nl when a sed range follows it', () => {
    expect(classifyShellCommand('/bin/bash -lc "nl -ba core/src/parse_command.rs | sed -n \'1200,1720p\'"')).toEqual({
      kind: 'read',
      paths: ['core/src/parse_command.rs'],
    });
  });

  it('drops printf banners and leading echos between reads', () => {
    expect(
      classifyShellCommand(
        `/bin/bash -lc 'printf "\\n===== ansi-escape/Cargo.toml =====\\n"; cat -- ansi-escape/Cargo.toml'`,
      ),
    ).toEqual({ kind: 'read', paths: ['ansi-escape/Cargo.toml'] });
    expect(classifyShellCommand("/bin/bash -lc 'echo --- && cat a.md'")).toEqual({ kind: 'read', paths: ['a.md'] });
  });

  it('keeps an echo that comes after the real command, which makes it a shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat a.md && echo done'")).toEqual(shell);
  });

  it('drops true from a sequence', () => {
    expect(classifyShellCommand("/bin/bash -lc 'rg --files || true'")).toEqual({ kind: 'list', paths: [] });
    expect(classifyShellCommand("/bin/bash -lc 'true && cat a.md'")).toEqual({ kind: 'read', paths: ['a.md'] });
  });

  it('drops wc, sort, uniq, cut and head without a file from a pipeline', () => {
    expect(classifyShellCommand("/bin/bash -lc 'rg --files src | sort | uniq | head -n 40 | wc -l'")).toEqual({
      kind: 'list',
      paths: ['src'],
    });
    expect(classifyShellCommand("/bin/bash -lc 'cut -d: -f1 /etc/passwd | sort'")).toEqual(shell);
  });

  it('drops yes at the head of a pipeline', () => {
    expect(classifyShellCommand("/bin/bash -lc 'yes | rg --files'")).toEqual({ kind: 'list', paths: [] });
  });

  it('drops a read-only xargs after a search', () => {
    expect(classifyShellCommand("/bin/bash -lc 'rg -l TODO src | xargs grep -n FIXME'")).toEqual({
      kind: 'search',
      query: 'TODO',
      paths: ['src'],
    });
  });

  it('does not count a helper on its own as a read', () => {
    expect(classifyShellCommand("/bin/bash -lc 'wc -l src/index.ts'")).toEqual(shell);
  });
});

describe('classifyShellCommand: listing and searching', () => {
  it('lists with ls, eza, tree and du', () => {
    expect(classifyShellCommand('/bin/bash -lc "ls -la | sed -n \'1,120p\'"')).toEqual({ kind: 'list', paths: [] });
    expect(classifyShellCommand('eza --color=always src')).toEqual({ kind: 'list', paths: ['src'] });
    expect(classifyShellCommand('tree -L 2 src')).toEqual({ kind: 'list', paths: ['src'] });
    expect(classifyShellCommand('du -d 2 .')).toEqual({ kind: 'list', paths: ['.'] });
  });

  it('lists with rg --files, git ls-files, fd without a pattern and find without a name filter', () => {
    expect(classifyShellCommand('rg --files webview/src')).toEqual({ kind: 'list', paths: ['webview/src'] });
    expect(classifyShellCommand('git ls-files --exclude target src')).toEqual({ kind: 'list', paths: ['src'] });
    expect(classifyShellCommand('fd -t f src/')).toEqual({ kind: 'list', paths: ['src/'] });
    expect(classifyShellCommand('find src -type f')).toEqual({ kind: 'list', paths: ['src'] });
  });

  it('lists when python walks the file system', () => {
    expect(classifyShellCommand(`/bin/bash -lc "python3 -c \\"import os; print(os.listdir('.'))\\""`)).toEqual({
      kind: 'list',
      paths: [],
    });
  });

  it('searches with rg, grep and git grep, reporting the query and paths', () => {
    expect(classifyShellCommand(`/bin/bash -lc 'rg -n "navigate-to-route" -S'`)).toEqual({
      kind: 'search',
      query: 'navigate-to-route',
      paths: [],
    });
    expect(classifyShellCommand('grep -R CODEX_SANDBOX_ENV_VAR -n .')).toEqual({
      kind: 'search',
      query: 'CODEX_SANDBOX_ENV_VAR',
      paths: ['.'],
    });
    expect(classifyShellCommand('git grep -l TODO src')).toEqual({ kind: 'search', query: 'TODO', paths: ['src'] });
  });

  it('takes the grep pattern from -e so every operand is a path', () => {
    expect(classifyShellCommand('grep -rn -e useState src/app.tsx src/main.tsx')).toEqual({
      kind: 'search',
      query: 'useState',
      paths: ['src/app.tsx', 'src/main.tsx'],
    });
  });

  it('searches with egrep, fgrep, ag, ack and pt', () => {
    for (const program of ['egrep -R', 'fgrep -l', 'ag', 'ack', 'pt -l']) {
      expect(classifyShellCommand(`${program} TODO src`)).toEqual({ kind: 'search', query: 'TODO', paths: ['src'] });
    }
  });

  it('searches with fd or find given a pattern', () => {
    expect(classifyShellCommand('fd main src')).toEqual({ kind: 'search', query: 'main', paths: ['src'] });
    expect(classifyShellCommand('/bin/bash -lc "find . -name \'*.rs\'"')).toEqual({
      kind: 'search',
      query: '*.rs',
      paths: ['.'],
    });
  });

  it('leaves out the query when searches disagree on it', () => {
    expect(classifyShellCommand("/bin/bash -lc 'rg foo src; rg bar lib'")).toEqual({
      kind: 'search',
      paths: ['src', 'lib'],
    });
  });
});

describe('classifyShellCommand: plain shell calls', () => {
  it('calls a mix of reads and searches a plain shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat README.md && rg -n TODO src'")).toEqual(shell);
  });

  it('calls anything with a redirect a plain shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt > b.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt >> b.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt 2>/dev/null'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'wc -l < a.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt &> out.log'")).toEqual(shell);
  });

  it('calls unrecognised commands a plain shell call, alone or next to a read', () => {
    expect(classifyShellCommand("/bin/bash -lc 'git status'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'npm run build'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat package.json && pnpm test'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'git status | wc -l'")).toEqual(shell);
  });

  it('does not unwrap a shell from an untrusted path', () => {
    expect(classifyShellCommand("/tmp/bash -lc 'cat README.md'")).toEqual(shell);
  });

  it('calls a pipeline through xargs into an editing program a plain shell call', () => {
    expect(
      classifyShellCommand(
        `/bin/bash -lc "rg -l QkBindingController src | xargs perl -pi -e 's/QkBindingController/QkController/g'"`,
      ),
    ).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'rg -l TODO src | xargs rm'")).toEqual(shell);
    expect(classifyShellCommand('/bin/bash -lc "rg -l foo | xargs sed -i \'s/foo/bar/\'"')).toEqual(shell);
  });

  it('calls commands that write files a plain shell call even where Codex would summarise them', () => {
    expect(classifyShellCommand('/bin/bash -lc "cat a.txt && sed -i \'s/a/b/\' a.txt"')).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt | tee b.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt | sort -o sorted.txt'")).toEqual(shell);
    expect(classifyShellCommand('/bin/bash -lc "find . -name \'*.tmp\' -delete"')).toEqual(shell);
  });

  it('calls a variable assignment prefix a plain shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc 'LC_ALL=C cat a.txt'")).toEqual(shell);
  });
});

describe('classifyShellCommand: empty and hostile input', () => {
  it('calls empty and blank commands a plain shell call', () => {
    expect(classifyShellCommand('')).toEqual(shell);
    expect(classifyShellCommand('   \n\t ')).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc ''")).toEqual(shell);
  });

  it('calls unbalanced quotes a plain shell call', () => {
    expect(classifyShellCommand("cat 'README.md")).toEqual(shell);
    expect(classifyShellCommand(`/bin/bash -lc 'cat "README.md'`)).toEqual(shell);
    expect(classifyShellCommand('/bin/bash -lc "cat README.md')).toEqual(shell);
    expect(classifyShellCommand('cat README.md\\')).toEqual(shell);
  });

  it('calls command substitution, backticks and variables a plain shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc 'cat $(git ls-files | head -n 1)'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat `which node`'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat $HOME/.bashrc'")).toEqual(shell);
    expect(classifyShellCommand(`/bin/bash -lc 'cat "\${FILE}"'`)).toEqual(shell);
    expect(classifyShellCommand('/bin/bash -lc "cat $HOME/.bashrc"')).toEqual(shell);
  });

  it('calls subshells, background jobs, comments and dangling operators a plain shell call', () => {
    expect(classifyShellCommand("/bin/bash -lc '(cat a.txt)'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt & cat b.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt # look'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt &&'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc '&& cat a.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt ;; cat b.txt'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt | | wc'")).toEqual(shell);
    expect(classifyShellCommand("/bin/bash -lc 'cat a.txt |& wc'")).toEqual(shell);
  });

  it('calls very long hostile input a plain shell call', () => {
    const inputs = [
      `cat ${'$('.repeat(200_000)}`,
      `'${'a'.repeat(1_000_000)}`,
      `${'cat a.txt | '.repeat(50_000)}unknown-tool`,
      `/bin/bash -lc "${'\\"'.repeat(200_000)}`,
      `${'cd x && '.repeat(50_000)}cat $(id)`,
    ];
    for (const input of inputs) expect(classifyShellCommand(input)).toEqual(shell);
  });

  it('reads every path of a very long script of plain reads, in order', () => {
    const script = Array.from({ length: 20_000 }, (_, index) => `cat file-${index}.txt`).join(' && ');
    const action = classifyShellCommand(`/bin/bash -lc '${script}'`);
    expect(action).toEqual({
      kind: 'read',
      paths: Array.from({ length: 20_000 }, (_, index) => `file-${index}.txt`),
    });
  });
});
