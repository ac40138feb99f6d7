// The value `secret set` stores, read from stdin: piped, all of it (one trailing newline dropped, as a secret
// file's is); on a terminal, one line typed with nothing echoed. Never printed, never in an error.
import { CliError, EXIT_INTERRUPTED } from '../errors.js';

/** The largest value taken: a secret is a token or a key, as a secret file is. */
export const MAX_VALUE_BYTES = 1024 * 1024;

/** What to read from and prompt on; the process's own by default. */
export interface ValueStreams {
  input: NodeJS.ReadStream;
  prompt: NodeJS.WritableStream;
}

/** Reads the value from `input`: typed at a prompt when it is a terminal, else everything piped in. */
export function readValue(
  label: string,
  streams: ValueStreams = { input: process.stdin, prompt: process.stderr },
): Promise<string> {
  return streams.input.isTTY ? typed(label, streams) : piped(streams.input);
}

async function piped(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_VALUE_BYTES)
      throw new CliError('value_too_large', `the value is over ${MAX_VALUE_BYTES} bytes`);
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * One line typed in raw mode, so nothing is echoed: Enter ends it, Backspace takes back a character, Ctrl-U the
 * whole line, Ctrl-C gives up (nothing is stored); escape sequences (arrow keys) are ignored.
 */
function typed(label: string, { input, prompt }: ValueStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let value: string[] = [];
    let inEscape = false;
    const finish = (err?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      prompt.write('\n');
      if (err) reject(err);
      else resolve(value.join(''));
    };
    const onData = (text: string) => {
      for (const ch of text) {
        if (inEscape) {
          // A CSI sequence ends with a letter or `~`; the `[` right after ESC is part of it.
          if (/[A-Za-z~]/.test(ch)) inEscape = false;
          continue;
        }
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003')
          return finish(new CliError('interrupted', 'interrupted: nothing stored', EXIT_INTERRUPTED));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch === '\u0015') value = [];
        else if (ch === '\u001b') inEscape = true;
        else if (ch >= ' ') value.push(ch);
      }
    };
    // Echo off before the prompt shows: a person (or a test) who types as soon as it appears is never echoed.
    input.setEncoding('utf8');
    input.setRawMode(true);
    prompt.write(`Value for ${label} (not shown): `);
    input.on('data', onData);
    input.resume();
  });
}
