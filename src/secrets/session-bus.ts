// Whether the session bus answers at all, asked before the keyring library is: libdbus dials and authenticates
// with no time limit, so a bus that accepts and never answers would hold the keyring thread — and, because Node
// waits for every thread at exit, the process — for good. One line of the D-Bus authentication protocol, with a
// deadline of our own, tells a living bus from a dead or silent one without ever reaching that code.
import { connect, type Socket } from 'node:net';

/** A socket a D-Bus address names that Node can dial. */
type Dial = { shown: string; path: string } | { shown: string; host: string; port: number };

/** What the probe found: the bus answered, or why not (for people, never a value). */
export type BusProbe = { ok: true } | { ok: false; words: string };

/**
 * Probes the bus `DBUS_SESSION_BUS_ADDRESS` names now, within `ms`. An address with nothing Node can dial (unset,
 * `autolaunch:`, `launchd:` …) is left to the library, which fails fast on those: the answer is then ok.
 */
export async function probeSessionBus(address: string | undefined, ms: number): Promise<BusProbe> {
  const dials = address === undefined ? [] : dialsOf(address);
  if (dials.length === 0) return { ok: true };
  const end = Date.now() + ms;
  let first: BusProbe | undefined;
  // As libdbus does, each address in turn until one answers.
  for (const dial of dials) {
    const probe = await probeOne(dial, Math.max(0, end - Date.now()));
    if (probe.ok) return probe;
    first ??= probe;
  }
  return first ?? { ok: true };
}

/** The dialable entries of a D-Bus address list (`unix:path=…,guid=…;tcp:host=…,port=…`). */
export function dialsOf(address: string): Dial[] {
  const out: Dial[] = [];
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon < 0) continue;
    const transport = entry.slice(0, colon);
    const keys = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) keys.set(pair.slice(0, eq), unescapeValue(pair.slice(eq + 1)));
    }
    const path = keys.get('path');
    const abstract = keys.get('abstract');
    const port = Number(keys.get('port'));
    if (transport === 'unix' && path !== undefined) out.push({ shown: path, path });
    // An abstract socket has no file: Node dials it by a name that starts with NUL.
    else if (transport === 'unix' && abstract !== undefined)
      out.push({ shown: `@${abstract}`, path: `\0${abstract}` });
    else if (transport === 'tcp' && Number.isInteger(port) && port > 0)
      out.push({
        shown: `${keys.get('host') ?? 'localhost'}:${port}`,
        host: keys.get('host') ?? 'localhost',
        port,
      });
  }
  return out;
}

/** D-Bus escapes bytes in an address's values as `%XX`. */
function unescapeValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Dials one socket and sends `AUTH` with no mechanism, which a bus answers with the mechanisms it accepts
 * (`REJECTED EXTERNAL …`): any line back is a living bus. Nothing is authenticated, so nothing is left open.
 */
function probeOne(dial: Dial, ms: number): Promise<BusProbe> {
  return new Promise((resolve) => {
    let socket: Socket | undefined;
    let heard = '';
    let settled = false;
    const done = (probe: BusProbe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      resolve(probe);
    };
    const timer = setTimeout(
      () =>
        done({ ok: false, words: `the session bus at ${dial.shown} did not answer within ${seconds(ms)}` }),
      ms,
    );
    socket = 'path' in dial ? connect({ path: dial.path }) : connect({ host: dial.host, port: dial.port });
    socket.on('connect', () => socket?.write('\0AUTH\r\n'));
    socket.on('data', (chunk: Buffer) => {
      heard += chunk.toString('latin1');
      if (heard.includes('\r\n')) done({ ok: true });
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      done({
        ok: false,
        words: `cannot connect to the session bus at ${dial.shown} (${err.code ?? err.message})`,
      }),
    );
    socket.on('close', () =>
      done({ ok: false, words: `the session bus at ${dial.shown} closed the connection without answering` }),
    );
  });
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
