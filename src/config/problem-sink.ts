// Collects every problem of one config, each located in the text, so that one run reports them all.
import type { z } from 'zod';
import { dotted, type LocatedDocument, type LocatedProblem, zodProblems } from '../registry/located-yaml.js';
import { unknownKeyMessage } from './unknown-key.js';

type Path = readonly (string | number)[];

/** Problems of one config document (plus those of files it names, like manifests), in report order. */
export class ProblemSink {
  private readonly problems: LocatedProblem[] = [];
  private readonly suppressed: Path[] = [];
  private lineStarts: number[] | undefined;

  constructor(
    private readonly doc: LocatedDocument,
    private readonly text: string,
    private readonly source: string,
    /** The schema of the whole document, to say which key an unknown one was meant to be. */
    private readonly rootSchema: z.core.$ZodType,
  ) {}

  get size(): number {
    return this.problems.length;
  }

  /** A problem at `path` (at its key, or the nearest ancestor that exists), of the kind `code` if given. */
  at(path: Path, message: string, code?: string): void {
    const at = this.doc.locate(path);
    this.problems.push({
      source: this.source,
      ...at,
      path: dotted(path),
      message,
      ...(code ? { code } : {}),
    });
  }

  /**
   * A problem about the reference `ref` (`${TOKEN}`) inside the scalar at `path`: located at the reference
   * itself when it can be found just after the scalar's position. Schema issues at or under `path` are
   * dropped afterwards: they would only restate that the value is missing.
   */
  atRef(path: Path, ref: string, message: string): void {
    const base = this.doc.locate(path);
    let where = base;
    if (ref) {
      const starts = this.starts();
      const from = (starts[base.line - 1] ?? 0) + base.col - 1;
      const found = this.text.indexOf(ref, from);
      if (found >= 0 && found - from < 1024) where = this.position(found);
    }
    this.problems.push({ source: this.source, ...where, path: dotted(path), message });
    this.suppressed.push(path);
  }

  /** Schema issues of the part of the document at `prefix`. */
  zod(issues: readonly z.core.$ZodIssue[], prefix: Path): void {
    const rest: z.core.$ZodIssue[] = [];
    for (const issue of issues) {
      const path = [...prefix, ...(issue.path as (string | number)[])];
      if (this.isSuppressed(path)) continue;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) this.unknownKey(path, key);
        continue;
      }
      rest.push({ ...issue, path });
    }
    this.problems.push(...zodProblems(rest, this.doc, this.source));
  }

  /** An unknown key under `parent`, with a hint at the key that was probably meant. */
  unknownKey(parent: Path, key: string): void {
    this.at([...parent, key], unknownKeyMessage(this.rootSchema, parent, key));
  }

  /** Problems located already (the YAML parser's, or another file's like a manifest's), kept as they are. */
  addForeign(problems: readonly LocatedProblem[]): void {
    this.problems.push(...problems);
  }

  /** Every problem: this document's first, then other files', each by line and column. */
  sorted(): LocatedProblem[] {
    return sortProblems(this.problems, this.source);
  }

  private isSuppressed(path: Path): boolean {
    return this.suppressed.some((s) => s.length <= path.length && s.every((k, i) => path[i] === k));
  }

  private starts(): number[] {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') this.lineStarts.push(i + 1);
    }
    return this.lineStarts;
  }

  private position(offset: number): { line: number; col: number } {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo]! + 1 };
  }
}

/** Problems in report order: those of `source` first, then other files' by name, each file's by line and column. */
export function sortProblems(problems: readonly LocatedProblem[], source: string): LocatedProblem[] {
  const rank = (p: LocatedProblem) => (p.source === source ? 0 : 1);
  return [...problems].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (rank(a) === 1 && a.source !== b.source ? (a.source < b.source ? -1 : 1) : 0) ||
      a.line - b.line ||
      a.col - b.col,
  );
}
