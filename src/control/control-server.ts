import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { StateDirUnsafeError, secureStateDir } from '../process/state-dir-safety.js';
import {
  answerError,
  CONTROL_PROTOCOL_VERSION,
  type ControlAnswer,
  type ControlRequest,
  MAX_REQUEST_BYTES,
  parseRequest,
  REQUEST_TIMEOUT_MS,
} from './protocol.js';
import { MAX_SOCKET_PATH, newSocketPath, removeStaleSockets } from './socket-dir.js';

/** A streamed answer: the first line, then `follow` pushes entries until the returned function is called. */
export interface FollowAnswer {
  answer: ControlAnswer;
  follow: (send: (entry: unknown) => void) => () => void;
}

/** Answers one command; never throws for a bad request (an unexpected throw is answered `INTERNAL`). */
export type ControlHandler = (
  request: ControlRequest,
) => ControlAnswer | FollowAnswer | Promise<ControlAnswer>;

export interface ControlServerOptions {
  /** The directory the socket goes in (created 0700 if missing; refused when another user can write it). */
  dir: string;
  /** One handler per command name; a host adds its own (`reload`) beside the defaults. */
  handlers: Readonly<Record<string, ControlHandler>>;
  /** Bounds, for tests; default {@link REQUEST_TIMEOUT_MS}. */
  requestTimeoutMs?: number;
}

export interface ControlServer {
  /** The socket's path (mode 0600). */
  readonly path: string;
  /** Ends every stream (`end: FLEET_STOPPED`), closes the listener and removes the socket; idempotent. */
  close(): Promise<void>;
}

/** Thrown when the socket cannot be opened; `code` says why. */
export class ControlSocketError extends Error {
  override readonly name = 'ControlSocketError';
  constructor(
    readonly code: 'PATH_TOO_LONG' | 'LISTEN_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Listens on a fresh Unix socket in `dir`: one request line per connection, bounded in size and time, answered
 * by the handler of its `cmd`. Stale sockets of dead hosts in `dir` are removed first. The socket is removed on
 * close and, as a backstop, when the process exits.
 */
export async function openControlServer(opts: ControlServerOptions): Promise<ControlServer> {
  try {
    secureStateDir(opts.dir);
  } catch (err) {
    // Someone else could swap the socket for theirs: that is a refusal, not a failure to listen.
    if (err instanceof StateDirUnsafeError) throw err;
    throw new ControlSocketError('LISTEN_FAILED', `cannot create ${opts.dir}: ${(err as Error).message}`);
  }
  const path = newSocketPath(opts.dir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH)
    throw new ControlSocketError(
      'PATH_TOO_LONG',
      `control socket path ${path} is longer than ${MAX_SOCKET_PATH} bytes (choose a shorter state directory)`,
    );
  await removeStaleSockets(opts.dir);
  const sockets = new Set<Socket>();
  const streams = new Map<Socket, () => void>();
  let closed = false;
  const server = createServer((socket) => {
    if (closed) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      streams.get(socket)?.();
      streams.delete(socket);
    });
    serveConnection(socket, opts, (stop) => {
      if (closed) return stop();
      streams.set(socket, stop);
    });
  });
  server.maxConnections = 64;
  await listen(server, path);
  try {
    // The directory is private already; this keeps the socket private whatever the umask.
    chmodSync(path, 0o600);
  } catch (err) {
    server.close();
    rmSync(path, { force: true });
    throw new ControlSocketError('LISTEN_FAILED', `cannot make ${path} private: ${(err as Error).message}`);
  }
  const onExit = () => rmSync(path, { force: true });
  process.on('exit', onExit);
  let closing: Promise<void> | undefined;
  return {
    path,
    close: () => {
      closing ??= (async () => {
        closed = true;
        const end = `${JSON.stringify({ v: CONTROL_PROTOCOL_VERSION, end: 'FLEET_STOPPED' })}\n`;
        for (const [socket, stop] of streams) {
          stop();
          socket.end(end);
        }
        streams.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // A client that never reads must not hold the stop: its socket goes after a short grace.
          setTimeout(() => {
            for (const s of sockets) s.destroy();
          }, 500).unref();
        });
        rmSync(path, { force: true });
        process.off('exit', onExit);
      })();
      return closing;
    },
  };
}

function serveConnection(
  socket: Socket,
  opts: ControlServerOptions,
  streaming: (stop: () => void) => void,
): void {
  let buffered = '';
  let done = false;
  const send = (value: unknown) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(value)}\n`);
  };
  const finish = (answer: ControlAnswer) => {
    done = true;
    clearTimeout(timer);
    socket.end(`${JSON.stringify(answer)}\n`);
  };
  const timer = setTimeout(() => finish(answerError('TIMEOUT')), opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (done) return;
    buffered += chunk;
    const nl = buffered.indexOf('\n');
    if (nl < 0) {
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) finish(answerError('TOO_LARGE'));
      return;
    }
    const line = buffered.slice(0, nl);
    if (Buffer.byteLength(line) > MAX_REQUEST_BYTES) return finish(answerError('TOO_LARGE'));
    done = true;
    clearTimeout(timer);
    void handle(line, opts.handlers).then((result) => {
      if ('follow' in result) {
        send(result.answer);
        if (socket.destroyed) return;
        streaming(
          result.follow((entry) => {
            // A reader that stopped reading is dropped rather than buffered without bound.
            if (socket.writableLength > 1024 * 1024) return void socket.destroy();
            send({ v: CONTROL_PROTOCOL_VERSION, entry });
          }),
        );
        return;
      }
      socket.end(`${JSON.stringify(result)}\n`);
    });
  });
}

async function handle(
  line: string,
  handlers: Readonly<Record<string, ControlHandler>>,
): Promise<ControlAnswer | FollowAnswer> {
  const parsed = parseRequest(line);
  if (!parsed.ok) return parsed.answer;
  const handler = Object.hasOwn(handlers, parsed.request.cmd) ? handlers[parsed.request.cmd] : undefined;
  if (!handler) return answerError('UNKNOWN_COMMAND', { detail: parsed.request.cmd });
  try {
    return await handler(parsed.request);
  } catch (err) {
    return answerError('INTERNAL', { detail: err instanceof Error ? err.message : String(err) });
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new ControlSocketError('LISTEN_FAILED', `cannot listen on ${path}: ${err.code ?? err.message}`)),
    );
    server.listen(path, () => resolve());
  });
}
