import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCycles } from './file-cycles.js';
import { gatewayReach, importProblems, packageProblems, target, timerCalls } from './import-rules.js';
import { findCycle, type PackageUse, readLayerTable, readPackageRules } from './layer-table.js';
import { importsOf, readImports, sourceFiles, stripComments } from './source-imports.js';

const root = process.cwd();
const table = readLayerTable(root);
const imports = readImports(root, 'src');

describe('the folder table of docs/architecture.md', () => {
  it('has a row for every folder under src/', () => {
    const folders = new Set(
      sourceFiles(root, 'src')
        .map((f) => f.split('/')[1])
        .filter((f) => !f?.endsWith('.ts')),
    );
    expect([...folders].filter((f) => f !== undefined && !table.has(f))).toEqual([]);
    expect(table.get('machines')).toEqual(new Set());
    expect(table.get('framing')).toEqual(new Set());
  });

  it('allows no cycle', () => {
    expect(findCycle(table)).toBeUndefined();
  });
});

describe('the source keeps the import rules', () => {
  it('every import between folders is one the table allows', () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(importProblems(imports, table)).toEqual([]);
  });

  it('no file imports itself back through others (type imports count)', () => {
    expect(fileCycles(sourceFiles(root, 'src'), imports)).toEqual([]);
  });

  it('each folder whose row names packages uses only those (container, inspector, metrics, machines, search, secrets)', () => {
    const rules = readPackageRules(root);
    expect([...rules.keys()].sort()).toEqual([
      'container',
      'inspector',
      'machines',
      'metrics',
      'search',
      'secrets',
    ]);
    expect(packageProblems(imports, rules)).toEqual([]);
  });

  it('src/gateway reaches src/supervisor only through what the package exports of it', () => {
    const exported = new Set(
      imports
        .filter((i) => i.file === 'src/index.ts')
        .flatMap((i) => {
          const to = target(i);
          return to === undefined ? [] : [to.replace(/\.js$/, '.ts')];
        }),
    );
    expect(exported.has('src/supervisor/supervisor.ts')).toBe(true);
    expect(gatewayReach(imports, exported)).toEqual([]);
  });

  it('the call path reads no wall clock and draws no random number: both are injected', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const bullet = doc.split('\n- ').find((b) => b.startsWith('On the call path')) ?? '';
    const places = [...(bullet.split(':')[0] ?? '').matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1] as string);
    expect(places).toContain('src/machines/');
    const files = places.flatMap((p) => (p.endsWith('/') ? sourceFiles(root, p) : [p]));
    const reads = files.flatMap((f) =>
      stripComments(readFileSync(join(root, f), 'utf8'))
        .split('\n')
        .flatMap((line, i) => (/\b(Date\.now|Math\.random)\b/.test(line) ? [`${f}:${i + 1}`] : [])),
    );
    expect(reads).toEqual([]);
  });

  it('nothing outside src/cli imports src/cli', () => {
    const intoCli = imports.filter(
      (i) => !i.file.startsWith('src/cli/') && /(^|\/)cli\//.test(i.specifier) && i.specifier.startsWith('.'),
    );
    expect(intoCli).toEqual([]);
  });

  it('src/framing imports neither src/protocol nor src/supervisor', () => {
    const up = imports.filter(
      (i) => i.file.startsWith('src/framing/') && /\.\.\/(protocol|supervisor)\//.test(i.specifier),
    );
    expect(up).toEqual([]);
  });

  it('src/machines imports xstate and itself only, and starts no timer of its own', () => {
    const machines = imports.filter((i) => i.file.startsWith('src/machines/'));
    expect(machines.length).toBeGreaterThan(0);
    for (const i of machines)
      expect(i.specifier === 'xstate' || i.specifier.startsWith('./'), i.specifier).toBe(true);
    const timers = sourceFiles(root, 'src/machines').flatMap((f) =>
      timerCalls(f, stripComments(readFileSync(join(root, f), 'utf8'))),
    );
    expect(timers).toEqual([]);
  });
});

describe('the rules catch what they are for', () => {
  const file = (path: string, text: string) => importsOf(path, text);

  it('names file, line and import for an edge the table does not allow', () => {
    const bad = file(
      'src/registry/x.ts',
      "import { a } from './a.js';\nimport type { S } from '../supervisor/types.js';\n",
    );
    expect(importProblems(bad, table)).toEqual([
      "src/registry/x.ts:2 imports '../supervisor/types.js': src/registry/ may not import src/supervisor/ (docs/architecture.md)",
    ]);
  });

  it('catches child_process, fs and timers in a machine, and src/cli from the library', () => {
    const machine = file(
      'src/machines/m.ts',
      "import { spawn } from 'node:child_process';\nimport { readFile } from 'node:fs/promises';\nimport { setup } from 'xstate';\n",
    );
    expect(importProblems(machine, table)).toEqual([
      "src/machines/m.ts:1 imports 'node:child_process': src/machines may import xstate and its own files only",
      "src/machines/m.ts:1 imports 'node:child_process': only src/process starts processes",
      "src/machines/m.ts:2 imports 'node:fs/promises': src/machines may import xstate and its own files only",
    ]);
    expect(timerCalls('src/machines/m.ts', 'const t = setTimeout(() => {}, 5);')).toHaveLength(1);
    expect(importProblems(file('src/index.ts', "export { main } from './cli/main.js';"), table)).toHaveLength(
      1,
    );
    expect(
      importProblems(file('src/supervisor/s.ts', "const m = await import('../cli/run.js');"), table),
    ).toHaveLength(1);
  });

  it('reads multi-line, type-only and dynamic imports, and skips imports named in comments or strings', () => {
    const found = file(
      'src/a/b.ts',
      [
        "import {\n  a,\n  type B,\n} from '../x/one.js';",
        "export type { C } from '../y/two.js';",
        "// import { no } from '../z/comment.js';",
        "/* export { no } from '../z/block.js'; */",
        'const s = "import { no } from \'../z/string.js\'";',
        "const m = await import('../w/three.js');",
      ].join('\n'),
    );
    expect(found.map((i) => [i.specifier, i.line, i.typeOnly])).toEqual([
      ['../x/one.js', 1, false],
      ['../y/two.js', 5, true],
      ['../w/three.js', 9, false],
    ]);
  });

  it('finds a circle of files, a package a row does not name, and a gateway reaching past the facade', () => {
    const circle = [
      ...file('src/a/x.ts', "import type { Y } from './y.js';"),
      ...file('src/a/y.ts', "import type { Z } from '../b/z.js';"),
      ...file('src/b/z.ts', "import { x } from '../a/x.js';"),
    ];
    expect(fileCycles(['src/a/x.ts', 'src/a/y.ts', 'src/b/z.ts', 'src/b/w.ts'], circle)).toEqual([
      ['src/a/x.ts', 'src/a/y.ts', 'src/b/z.ts'],
    ]);
    const rules = new Map<string, Map<string, PackageUse>>([
      ['metrics', new Map([['prom-client', 'any']])],
      ['inspector', new Map([['xstate', 'types']])],
    ]);
    expect(
      packageProblems(
        [
          ...file(
            'src/metrics/m.ts',
            "import { Counter } from 'prom-client';\nimport { trace } from '@opentelemetry/api';",
          ),
          ...file(
            'src/inspector/i.ts',
            "import type { AnyActor } from 'xstate';\nimport { createActor } from 'xstate';",
          ),
        ],
        rules,
      ),
    ).toEqual([
      "src/metrics/m.ts:2 imports '@opentelemetry/api': src/metrics/ may use only the packages its row names",
      "src/inspector/i.ts:2 imports 'xstate': src/inspector/ may import it for types only",
    ]);
    const reach = file(
      'src/gateway/g.ts',
      "import type { F } from '../supervisor/calls/tool-table.js';\nimport type { S } from '../supervisor/supervisor.js';",
    );
    expect(gatewayReach(reach, new Set(['src/supervisor/supervisor.ts']))).toEqual([
      "src/gateway/g.ts:1 imports '../supervisor/calls/tool-table.js': src/gateway/ reaches src/supervisor/ only through what src/index.ts exports of it",
    ]);
  });

  it('finds a cycle in a table that allows one', () => {
    const cyclic = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(cyclic)).toEqual(['a', 'b', 'c', 'a']);
  });
});
