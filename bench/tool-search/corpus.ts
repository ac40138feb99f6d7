// The corpus of the tool-search benchmark: published MCP servers, installed at bench time from the pinned
// package.json and lock beside this file into a directory of the system's temp dir (never into the project), and
// run so that each lists its own tools. The keys they want are set to dummies: listing tools needs none.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../../src/config/types.js';
import { fixtureServer } from '../lib/fixture-fleet.js';

const here = fileURLToPath(new URL('./corpus/', import.meta.url));
const project = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/** Installs the corpus's servers once per lock file; the directory holding their node_modules. */
export function installCorpus(log: (what: string) => void): string {
  const lock = readFileSync(join(here, 'package-lock.json'));
  const dir = join(
    tmpdir(),
    `mcp-supervisor-search-corpus-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`,
  );
  if (existsSync(join(dir, 'node_modules', '.package-lock.json'))) return join(dir, 'node_modules');
  log(`installing the corpus's servers into ${dir} (once)`);
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(here, f), join(dir, f));
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel', 'error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return join(dir, 'node_modules');
}

const DUMMY_KEYS: Record<string, string> = {
  GITHUB_PERSONAL_ACCESS_TOKEN: 'unused',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'unused',
  SLACK_BOT_TOKEN: 'xoxb-unused',
  SLACK_TEAM_ID: 'T0',
  BRAVE_API_KEY: 'unused',
  GOOGLE_MAPS_API_KEY: 'unused',
  EVERART_API_KEY: 'unused',
  AWS_ACCESS_KEY_ID: 'unused',
  AWS_SECRET_ACCESS_KEY: 'unused',
  AWS_REGION: 'us-east-1',
  NOTION_TOKEN: 'unused',
};

/** The corpus as a fleet: server id → the script and its args. */
export function corpusServers(modules: string): ServerConfig[] {
  const official = (name: string) => join(modules, '@modelcontextprotocol', name, 'dist', 'index.js');
  const ours = (name: string) => join(project, '@modelcontextprotocol', name, 'dist', 'index.js');
  const scripts: Record<string, string[]> = {
    everything: [ours('server-everything'), 'stdio'],
    filesystem: [ours('server-filesystem'), tmpdir()],
    memory: [ours('server-memory')],
    github: [official('server-github')],
    gitlab: [official('server-gitlab')],
    slack: [official('server-slack')],
    brave: [official('server-brave-search')],
    maps: [official('server-google-maps')],
    thinking: [official('server-sequential-thinking')],
    postgres: [official('server-postgres'), 'postgresql://127.0.0.1:1/none'],
    everart: [official('server-everart')],
    awskb: [official('server-aws-kb-retrieval')],
    notion: [join(modules, '@notionhq', 'notion-mcp-server', 'bin', 'cli.mjs')],
    context7: [join(modules, '@upstash', 'context7-mcp', 'dist', 'index.js')],
    kubernetes: [join(modules, 'mcp-server-kubernetes', 'dist', 'index.js')],
  };
  return Object.entries(scripts).map(([id, args]) => ({
    ...fixtureServer(id),
    args,
    env: {
      ...DUMMY_KEYS,
      MEMORY_FILE_PATH: join(tmpdir(), `mcp-supervisor-search-memory-${process.pid}.json`),
    },
    inheritEnv: ['PATH', 'HOME'],
  }));
}
