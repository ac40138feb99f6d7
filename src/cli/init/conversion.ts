// The shape of a converted client file, between reading it (convert.ts, entry.ts) and writing it (render.ts).
import type { LocatedProblem } from '../../registry/located-yaml.js';

/** A value as it is written out: a scalar, a flow list, a block map of strings, or any JSON in flow style. */
export type FieldValue = string | boolean | string[] | { map: Record<string, string> } | { flow: unknown };

/** One server of the output. */
export interface ConvertedServer {
  id: string;
  fields: [string, FieldValue][];
  /** Comments written above the entry. */
  notes: string[];
  /** Set when the entry cannot be used: it is written commented out, after this reason. */
  off?: string;
}

/** The whole output, before it is written. */
export interface Conversion {
  format: string;
  /** `supervisor:` and `serve:` sections the file carried for us, as they were. */
  sections: [string, unknown][];
  servers: ConvertedServer[];
  /** Comments of the file as a whole. */
  notes: string[];
  /** Every note, located in the source. */
  warnings: LocatedProblem[];
}
