import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

// test/config/parse-config.property.test.ts already builds random documents (our keys with random
// values) and stringifies them with `yaml`, so every input there is well-formed YAML. This adds the other half:
// real config files damaged at the text level (cut, spliced, stray YAML syntax), the way a hand edit or a bad
// merge leaves them. The answer must still be a SupervisorConfig or a located ConfigError.

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../config/fixtures');
const seeds = [
  { source: 'full.yaml', text: readFileSync(join(FIXTURES, 'full.yaml'), 'utf8') },
  { source: 'claude.json', text: readFileSync(join(FIXTURES, 'claude_desktop_config.json'), 'utf8') },
  { source: 'mcp.json', text: readFileSync(join(FIXTURES, 'vscode-mcp.json'), 'utf8') },
  {
    source: 'small.yaml',
    text: 'servers:\n  a:\n    command: node\n    args: [x.js]\n    restart: always\n',
  },
];
const env = { TOKEN: 't', HOME: '/home/u', GITHUB_TOKEN: 'g' };

const syntax = fc.constantFrom(
  ':',
  '- ',
  '\n',
  '\n  ',
  '\t',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '#',
  '&a ',
  '*a',
  '<<: *a',
  '!!binary ',
  '!!js/function ',
  '${',
  '${X:-',
  '---\n',
  '...\n',
  '? ',
  '|\n',
  '>-\n',
  '\u0000',
  '\ufeff',
  '%YAML 1.1\n',
  '1e999',
  '0x1F',
  '~',
);
const edit = fc.oneof(
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(syntax, fc.string({ maxLength: 4 })),
  }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('dupLine' as const), at: fc.nat() }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(text: string, e: Edit): string {
  const at = e.at % (text.length + 1);
  switch (e.op) {
    case 'insert':
      return text.slice(0, at) + e.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + e.n);
    case 'truncate':
      return text.slice(0, at);
    case 'dupLine': {
      const lines = text.split('\n');
      const i = e.at % lines.length;
      lines.splice(i, 0, lines[i] ?? '');
      return lines.join('\n');
    }
  }
}

describe('parseConfig on damaged config text', () => {
  it('yields a SupervisorConfig or a located ConfigError, never another error nor an internal one', () => {
    let parsed = 0;
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        (seed, edits) => {
          const text = edits.reduce(apply, seed.text);
          let config: ReturnType<typeof parseConfig>;
          try {
            config = parseConfig(text, { source: seed.source, env, baseDir: FIXTURES });
          } catch (err) {
            expect(err).toBeInstanceOf(ConfigError);
            const problems = (err as ConfigError).problems;
            expect(problems.length).toBeGreaterThan(0);
            for (const p of problems) {
              expect(p.message).not.toMatch(/internal error/);
              expect(p.line).toBeGreaterThanOrEqual(1);
              expect(p.col).toBeGreaterThanOrEqual(1);
            }
            rejected++;
            return;
          }
          parsed++;
          expect(config.servers.length).toBeGreaterThan(0);
          for (const s of config.servers) {
            expect(s.id).toMatch(/^[a-z][a-z0-9_-]*$/);
            expect(typeof s.command).toBe('string');
            expect(Number.isFinite(s.timeouts.startupMs)).toBe(true);
          }
        },
      ),
      { numRuns: 600 },
    );
    // a single edit often leaves a valid file (inside a string, a comment): both outcomes must be reached
    // (about one damaged file in ten still parses: > 10 of 600 leaves room for an unlucky seed)
    expect(parsed).toBeGreaterThan(10);
    expect(rejected).toBeGreaterThan(100);
  });
});
