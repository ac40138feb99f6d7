import { type CallClock, holdOpen, REAL_CLOCK } from '../../protocol/call-clock.js';
import type { ServerStatus } from '../../supervisor/types.js';
import { renderStatusTable } from '../control/status-table.js';

export interface LiveTableOptions {
  /** Minimum time between two redraws (default 200 ms: at most 5 per second). */
  throttleMs?: number;
  /** Redraw this often even without events, so uptimes advance (default 1 s). */
  tickMs?: number;
  /** How many recent event lines are kept under the table. */
  recent?: number;
  /** Colour the state column (default: unless `NO_COLOR` is set). */
  colour?: boolean;
  now?: () => number;
  /** What redraws are timed on; the real clock unless a test drives one. */
  clock?: CallClock;
}

const ESC = '\x1b[';

/**
 * The status table of `run` on a terminal, redrawn in place with ANSI cursor moves. Redraws are throttled;
 * `suspend()` hands the terminal to a prompt and `resume()` takes it back.
 */
export class LiveTable {
  private readonly header: string[] = [];
  private readonly recentLines: string[] = [];
  private drawn = 0;
  private lastDraw = 0;
  private pending: unknown;
  private ticker: unknown;
  private readonly clock: CallClock;
  private readonly tickMs: number;
  private suspended = 0;
  private stopped = false;
  private readonly throttleMs: number;
  private readonly recentMax: number;
  private readonly now: () => number;
  private readonly colour: boolean;
  private readonly restoreCursor = () => this.stream.write(`${ESC}?25h`);

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly rows: () => ServerStatus[],
    opts: LiveTableOptions = {},
  ) {
    this.throttleMs = opts.throttleMs ?? 200;
    this.recentMax = opts.recent ?? 5;
    this.clock = opts.clock ?? REAL_CLOCK;
    this.now = opts.now ?? (() => this.clock.now());
    this.tickMs = opts.tickMs ?? 1000;
    this.colour = opts.colour ?? !process.env['NO_COLOR'];
    this.stream.write(`${ESC}?25l`);
    process.once('exit', this.restoreCursor);
    this.tick();
  }

  /** Redraws every `tickMs` even without events, so uptimes advance; never holds the process open. */
  private tick(): void {
    if (this.stopped) return;
    this.ticker = this.clock.setTimeout(() => {
      this.invalidate();
      this.tick();
    }, this.tickMs);
    holdOpen(this.ticker, false);
  }

  /** Lines shown above the table (title, UI address). */
  setHeader(lines: readonly string[]): void {
    this.header.splice(0, this.header.length, ...lines);
    this.invalidate();
  }

  /**
   * A line that stays (an address to copy): written whole above the table, however wide, and the table drawn
   * again under it, so the cursor moves of later redraws never reach it.
   */
  print(line: string): void {
    const clear = this.drawn > 0 ? `${ESC}${this.drawn}F${ESC}J` : '';
    this.drawn = 0;
    this.stream.write(`${clear}${line}\n`);
    this.invalidate();
  }

  /** Adds a line to the recent-events list under the table. */
  note(line: string): void {
    this.recentLines.push(line);
    if (this.recentLines.length > this.recentMax) this.recentLines.shift();
    this.invalidate();
  }

  /** Asks for a redraw; coalesced so the screen changes at most once per throttle interval. */
  invalidate(): void {
    if (this.stopped || this.suspended > 0 || this.pending !== undefined) return;
    const wait = Math.max(0, this.lastDraw + this.throttleMs - this.now());
    this.pending = this.clock.setTimeout(() => {
      this.pending = undefined;
      this.draw();
    }, wait);
    holdOpen(this.pending, false);
  }

  /** Stops drawing (for a prompt); the next `resume()` draws afresh below whatever the prompt printed. */
  suspend(): void {
    this.suspended++;
    if (this.pending !== undefined) this.clock.clearTimeout(this.pending);
    this.pending = undefined;
    this.drawn = 0;
    this.stream.write(`${ESC}?25h`);
  }

  /** Takes the terminal back after `suspend()`. */
  resume(): void {
    this.suspended = Math.max(0, this.suspended - 1);
    if (this.suspended === 0 && !this.stopped) {
      this.stream.write(`${ESC}?25l`);
      this.invalidate();
    }
  }

  /** Draws one last time and leaves the table on screen with the cursor below it. */
  stop(): void {
    if (this.stopped) return;
    if (this.suspended === 0) this.draw();
    this.stopped = true;
    if (this.pending !== undefined) this.clock.clearTimeout(this.pending);
    if (this.ticker !== undefined) this.clock.clearTimeout(this.ticker);
    this.restoreCursor();
    process.off('exit', this.restoreCursor);
  }

  private draw(): void {
    if (this.stopped || this.suspended > 0) return;
    this.lastDraw = this.now();
    const width = this.stream.columns || 100;
    const table = renderStatusTable(this.rows(), this.now(), { width, colour: this.colour });
    const cut = (l: string) => (l.length < width ? l : `${l.slice(0, width - 2)}…`);
    const lines = [
      ...this.header.map(cut),
      ...table,
      ...(this.recentLines.length ? ['', ...this.recentLines.map(cut)] : []),
    ];
    let out = this.drawn > 0 ? `${ESC}${this.drawn}F` : '';
    for (const line of lines) out += `${ESC}2K${line}\n`;
    out += `${ESC}J`;
    this.stream.write(out);
    this.drawn = lines.length;
  }
}
