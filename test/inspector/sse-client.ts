import { get, type IncomingMessage } from 'node:http';

/** One parsed Server-Sent-Events frame (comments kept, so keepalives can be seen). */
export interface Frame {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
  retry?: number;
}

/** A minimal SSE reader for tests: collects frames and lets a test wait for the n-th one. */
export class SseClient {
  readonly frames: Frame[] = [];
  ended = false;
  #res: IncomingMessage | undefined;
  #buf = '';
  #waiters: Array<() => void> = [];

  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const c = new SseClient();
    return new Promise((resolve, reject) => {
      const req = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        c.#res = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => c.#push(chunk));
        res.on('end', () => c.#end());
        res.on('close', () => c.#end());
        res.on('error', () => c.#end());
        resolve(c);
      });
      req.on('error', reject);
    });
  }

  get status(): number | undefined {
    return this.#res?.statusCode;
  }

  get headers(): IncomingMessage['headers'] | undefined {
    return this.#res?.headers;
  }

  /** Frames with a given event name. */
  named(event: string): Frame[] {
    return this.frames.filter((f) => f.event === event);
  }

  /** Resolves once `pred` holds over the frames seen so far, or rejects after `ms`. */
  until(pred: (frames: Frame[]) => boolean, ms = 3000): Promise<void> {
    if (pred(this.frames)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== check);
        reject(new Error(`timed out; frames so far: ${JSON.stringify(this.frames)}`));
      }, ms);
      const check = (): void => {
        if (!pred(this.frames) && !this.ended) return;
        clearTimeout(timer);
        this.#waiters = this.#waiters.filter((w) => w !== check);
        if (pred(this.frames)) resolve();
        else reject(new Error(`stream ended; frames: ${JSON.stringify(this.frames)}`));
      };
      this.#waiters.push(check);
    });
  }

  /** Stops reading, so the server's socket buffer fills up (a stalled browser tab). */
  pause(): void {
    this.#res?.pause();
  }

  /** Reads again after `pause`. */
  resume(): void {
    this.#res?.resume();
  }

  close(): void {
    this.#res?.destroy();
  }

  #push(chunk: string): void {
    this.#buf += chunk;
    let at = this.#buf.indexOf('\n\n');
    while (at !== -1) {
      const block = this.#buf.slice(0, at);
      this.#buf = this.#buf.slice(at + 2);
      this.frames.push(parseFrame(block));
      at = this.#buf.indexOf('\n\n');
    }
    for (const w of [...this.#waiters]) w();
  }

  #end(): void {
    this.ended = true;
    for (const w of [...this.#waiters]) w();
  }
}

function parseFrame(block: string): Frame {
  const f: Frame = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) f.comment = line.slice(1).trim();
    else if (line.startsWith('event: ')) f.event = line.slice(7);
    else if (line.startsWith('id: ')) f.id = line.slice(4);
    else if (line.startsWith('data: ')) f.data = (f.data === undefined ? '' : `${f.data}\n`) + line.slice(6);
    else if (line.startsWith('retry: ')) f.retry = Number(line.slice(7));
  }
  return f;
}
