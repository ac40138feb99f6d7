import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './cli/helpers.js';

// The package as a host meets it: a plain Node ESM script that imports `mcp-supervisor` (the package's own
// name resolves to dist/index.js through package.json `exports`), with no TypeScript loader in between.

const HOST_SCRIPT = String.raw`
import * as api from 'mcp-supervisor';
const registry = new api.ToolRegistry();
registry.registerFromManifest(['documents.list', { name: 'documents.create', scopes_required: ['mcp.write.documents'] }]);
let duplicate;
try { registry.register('documents.list'); } catch (err) { duplicate = [err.name, err.code]; }
const framer = new api.LineFramer();
const framed = [...framer.push(new TextEncoder().encode('log line\n{"jsonrpc":"2.0","id":1,"result":{}}\n'))];
console.log(JSON.stringify({
  names: Object.keys(api).sort(),
  synthesized: api.synthesizeNamespacedName('markview', 'documents.create'),
  parsed: api.parseNamespacedName('markview.documents.create'),
  bare: ['documents.create', 'Documents', 'get-env', 'a..b'].map(api.isValidBareName),
  registered: registry.list(),
  duplicate,
  scopes: api.checkScopes({ pluginWideScopes: ['mcp.read.documents'], callerScopes: ['mcp.*'], tool: registry.get('documents.create') }),
  exposed: [api.exposedName('markview', 'documents.create', '.'), api.exposedName('everything', 'get-env', '__')],
  owner: api.exposedNameOwner('everything__get-env', ['everything'], '__'),
  flattened: api.flattenToolResult({ content: [{ type: 'text', text: 'hi' }], isError: true }),
  framed: framed.map((e) => e.kind),
}));
`;

/** Runtime names a host relies on: the seed registry's, the supervisor's, and the helpers SPEC and docs name. */
const PUBLIC = [
  'ConfigError',
  'DEFAULT_SERVER_LIMITS',
  'ExtendedMcpToolSchema',
  'LineFramer',
  'LOG_LEVELS',
  'ManifestProvidesSchema',
  'ManifestSchema',
  'McpToolEntrySchema',
  'OUTCOME_CODE_META_KEY',
  'RegistryError',
  'RemoteError',
  'Supervisor',
  'SupervisorError',
  'ToolRegistry',
  'availableContainment',
  'capToolResult',
  'checkScopes',
  'createGateway',
  'createSupervisor',
  'describeSpawnError',
  'exposedName',
  'exposedNameOwner',
  'flattenToolResult',
  'formatProblem',
  'installReapHooks',
  'isLogLevel',
  'isValidBareName',
  'isValidMcpToolName',
  'isValidServerId',
  'liveGroups',
  'loadConfig',
  'loadManifest',
  'normalizeMcpToolEntry',
  'parseConfig',
  'parseManifest',
  'parseNamespacedName',
  'reapAll',
  'scopeGrants',
  'serveHttp',
  'replicaTaskIds',
  'serverMachine',
  'startUiServer',
  'supervisorMachine',
  'supervisorMetrics',
  'synthesizeNamespacedName',
  'toStatechart',
];

/** Internals that once were exported or could slip in: none is part of the API. */
const INTERNAL = [
  'FleetTools',
  'RouteTable',
  'McpConnection',
  'FramePool',
  'StreamDecoder',
  'TrustGate',
  'buildChildEnv',
  'DEFAULT_ENV_ALLOWLIST',
  'parseDuration',
  'parseSize',
  'diffTools',
  'mcpToolEntryNameIssues',
  'restartDelay',
  'shouldRestart',
  'isFailure',
  'RestartPolicyError',
  'toolOwner',
  'isRecord',
];

describe('the package entry, imported by a plain Node ESM host', () => {
  let out: Record<string, unknown>;

  beforeAll(async () => {
    await ensureBuilt();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', HOST_SCRIPT],
      {
        cwd: ROOT,
        timeout: 30_000,
      },
    );
    out = JSON.parse(stdout);
  }, 180_000);

  it('exports what a host needs and none of the internals', () => {
    const names = out['names'] as string[];
    expect(PUBLIC.filter((n) => !names.includes(n))).toEqual([]);
    expect(INTERNAL.filter((n) => names.includes(n))).toEqual([]);
  });

  it('keeps the seed registry names and semantics', () => {
    expect(out['synthesized']).toBe('markview.documents.create');
    expect(out['parsed']).toEqual({ pluginId: 'markview', bareName: 'documents.create' });
    expect(out['bare']).toEqual([true, false, false, false]);
    expect(out['registered']).toEqual([
      { name: 'documents.list', scopesRequired: [] },
      { name: 'documents.create', scopesRequired: ['mcp.write.documents'] },
    ]);
    expect(out['duplicate']).toEqual(['RegistryError', 'duplicate_tool']);
    expect(out['scopes']).toEqual({
      ok: true,
      required: ['mcp.read.documents', 'mcp.write.documents'],
      missing: [],
    });
  });

  it('makes and takes apart the fleet names, frames and flattens as SPEC says', () => {
    const [plain, hashed] = out['exposed'] as string[];
    expect(plain).toBe('markview.documents.create');
    expect(hashed).toBe('everything__get-env');
    expect(out['owner']).toBe('everything');
    expect(out['flattened']).toBe('ERROR: hi');
    expect(out['framed']).toEqual(['noise', 'message']);
  });
});

describe('src/index.ts', () => {
  it('names every export: no export *', () => {
    const text = readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8');
    expect(text).not.toMatch(/^\s*export\s+\*/m);
  });
});
