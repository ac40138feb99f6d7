import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { BIN, ROOT, sleep } from './helpers.js';

// util-linux `script` gives the CLI a real pseudo-terminal, the way a person runs it.
const SCRIPT = '/usr/bin/script';
export const hasScript = existsSync(SCRIPT);
if (!hasScript)
  console.warn(
    `\n#### TTY TEST DID NOT RUN: ${SCRIPT} is missing; the live table and prompt were NOT checked ####\n`,
  );

/** Runs the CLI on pseudo-terminals of a given width; every one is killed, and its home removed, after each test. */
export function terminals() {
  const children: ChildProcess[] = [];
  const homes: string[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
    for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
  });

  /** Runs the CLI under a pseudo-terminal; returns a reader of everything it drew and a way to type. */
  return function onTerminal(args: string[], columns = 120) {
    const home = mkdtempSync(join(tmpdir(), 'mcp-sup-tty-'));
    homes.push(home);
    const cmd = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    // `exec`: no shell between the terminal and the CLI, whose death would send the CLI a SIGHUP of its own.
    const child = spawn(SCRIPT, ['-qfec', `stty cols ${columns} rows 40; exec ${cmd}`, '/dev/null'], {
      cwd: ROOT,
      env: {
        ...process.env,
        TERM: 'xterm',
        COLUMNS: String(columns),
        LINES: '40',
        MCP_SUPERVISOR_TRUST_STORE: join(home, 'trust.json'),
        XDG_STATE_HOME: join(home, 'state'),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let screen = '';
    child.stdout!.on('data', (d: Buffer) => {
      screen += d.toString();
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const waitFor = async (pattern: RegExp, ms = 10_000) => {
      const end = Date.now() + ms;
      while (!pattern.test(screen)) {
        if (Date.now() > end) throw new Error(`no ${pattern} on the terminal; it showed:\n${screen}`);
        await sleep(20);
      }
    };
    return {
      child,
      home,
      screen: () => screen,
      waitFor,
      type: (s: string) => child.stdin!.write(s),
      exited,
    };
  };
}

/**
 * What a terminal `columns` wide shows after `bytes`: the logical lines left on screen (a line the terminal wrapped
 * is one line), for the few controls the CLI writes: CR, LF, cursor up to a line start (`CSI n F`), erase line
 * (`CSI 2 K`) and erase below (`CSI J`); colours and cursor visibility change nothing here.
 */
export function screenOf(bytes: string, columns: number): string[] {
  const rows: string[] = [''];
  const wrapped: boolean[] = [false];
  let row = 0;
  let col = 0;
  const at = (r: number) => {
    while (rows.length <= r) {
      rows.push('');
      wrapped.push(false);
    }
  };
  const put = (ch: string) => {
    if (col >= columns) {
      row++;
      at(row);
      wrapped[row] = true;
      col = 0;
    }
    at(row);
    rows[row] = rows[row]!.padEnd(col).slice(0, col) + ch + rows[row]!.slice(col + 1);
    col++;
  };
  for (let i = 0; i < bytes.length; i++) {
    const ch = bytes[i]!;
    if (ch === '\x1b' && bytes[i + 1] === '[') {
      const m = /^\x1b\[([0-9;?]*)([A-Za-z])/.exec(bytes.slice(i, i + 16));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1]) || 1;
      if (m[2] === 'F') {
        row = Math.max(0, row - n);
        col = 0;
      } else if (m[2] === 'K') {
        at(row);
        rows[row] = '';
      } else if (m[2] === 'J') {
        at(row);
        rows[row] = rows[row]!.slice(0, col);
        rows.length = row + 1;
        wrapped.length = row + 1;
      }
    } else if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row++;
      at(row);
      wrapped[row] = false;
    } else if (ch >= ' ') put(ch);
  }
  const lines: string[] = [];
  for (const [r, text] of rows.entries()) {
    if (wrapped[r] && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.map((l) => l.trimEnd());
}
