import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { ContainerFacts, FingerprintFacts } from './fingerprint.js';
import { TrustStoreError } from './trust-error.js';
import { parseTrustKey } from './trust-key.js';

/** The on-disk format version this code reads and writes. */
export const STORE_VERSION = 1;

/** One trusted server: the fingerprint approved, what it was computed from, and its pinned tool hashes. */
export interface TrustRecord {
  id: string;
  /** The config file the approval is for (absolute); absent for a config built in memory, or an older store. */
  config?: string;
  fingerprint: string;
  facts: FingerprintFacts;
  /** ISO 8601 time of the approval. */
  approvedAt: string;
  /** Tool name → hash of its definition (see `hashToolDefinition`), once pinned. */
  tools?: Record<string, string>;
}

/** The whole file: records keyed by server id and config file (`trust-key.ts`). */
export interface StoreData {
  version: typeof STORE_VERSION;
  servers: Record<string, TrustRecord>;
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest');
const factsSchema = z.object({
  id: z.string(),
  command: z.string(),
  executable: z.string().nullable(),
  executableSha256: sha256.nullable(),
  args: z.array(z.string()),
  argValues: sha256.optional(),
  cwd: z.string(),
  env: z.record(z.string(), sha256),
  inheritEnv: z.array(z.string()),
  scripts: z.array(
    z.object({
      index: z.number().int().min(0),
      arg: z.string(),
      path: z.string(),
      sha256: sha256.nullable(),
    }),
  ),
  remote: z
    .object({
      url: z.string(),
      headers: z.record(z.string(), sha256),
      headersAsWritten: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  container: z
    .object({
      image: z.string(),
      imageId: z.string(),
      pull: z.enum(['never', 'missing', 'always']),
      engine: z.string(),
      memoryBytes: z.number().optional(),
      cpus: z.number().optional(),
      pids: z.number().optional(),
      network: z.string(),
      readOnly: z.boolean(),
      user: z.string().optional(),
      mounts: z.array(z.object({ source: z.string(), target: z.string(), readOnly: z.boolean() })),
      workdir: z.string().optional(),
    })
    .optional(),
});
const recordSchema = z.object({
  id: z.string(),
  config: z.string().optional(),
  fingerprint: sha256,
  facts: factsSchema,
  approvedAt: z.string(),
  tools: z.record(z.string(), sha256).optional(),
});
const fileSchema = z.object({
  version: z.literal(STORE_VERSION),
  servers: z.record(z.string(), recordSchema),
});

/**
 * The last store this process read or wrote, per path, with the identity of the file that held it. Every write
 * replaces the file by a rename (a new inode), so a file with the same inode, size and modification time (in
 * nanoseconds) is that same file, and need not be parsed and validated again: what a fleet approving a thousand
 * servers at once would otherwise do a thousand times over a growing file.
 */
const known = new Map<string, { id: string; data: StoreData }>();

async function fileId(path: string): Promise<string> {
  const st = await stat(path, { bigint: true });
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
}

/** Reads and validates the store file; a missing file is an empty store, anything unreadable throws. */
export async function readStoreFile(path: string): Promise<StoreData> {
  let text: string;
  let id: string;
  try {
    id = await fileId(path);
    const cached = known.get(path);
    if (cached?.id === id) return structuredClone(cached.data);
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: STORE_VERSION, servers: {} };
    throw new TrustStoreError('io_error', path, `cannot read trust store ${path}: ${(err as Error).message}`);
  }
  const data = parseStore(text, path);
  // Read after the stat: a file replaced in between is parsed again next time (its id will not match).
  known.set(path, { id, data: structuredClone(data) });
  return data;
}

/** Validates store text; never returns an empty store for bad input, since that would silently forget trust. */
export function parseStore(text: string, path: string): StoreData {
  const corrupt = (what: string) =>
    new TrustStoreError(
      'corrupt_store',
      path,
      `trust store ${path} is corrupt: ${what} (fix or remove the file)`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw corrupt(`not valid JSON (${(err as Error).message})`);
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && version !== STORE_VERSION) {
    throw corrupt(`version ${JSON.stringify(version)} is not supported (expected ${STORE_VERSION})`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw corrupt(issues.join('; '));
  }
  const servers: Record<string, TrustRecord> = {};
  for (const [key, rec] of Object.entries(parsed.data.servers)) {
    const named = parseTrustKey(key);
    if (rec.id !== named.id || rec.config !== named.config)
      throw corrupt(
        `servers.${key} names ${JSON.stringify(rec.id)}${rec.config ? ` of ${rec.config}` : ''}, not its key`,
      );
    const { tools, facts: stored, config, ...rest } = rec;
    const { argValues, remote, container, ...plain } = stored;
    const facts: FingerprintFacts = {
      ...plain,
      ...(argValues === undefined ? {} : { argValues }),
      ...(remote === undefined ? {} : { remote: remoteFacts(remote) }),
      // The keys zod left undefined are dropped: the facts compare (and hash) as they were computed.
      ...(container === undefined
        ? {}
        : {
            container: Object.fromEntries(
              Object.entries(container).filter(([, v]) => v !== undefined),
            ) as ContainerFacts,
          }),
    };
    const scoped = config === undefined ? rest : { ...rest, config };
    servers[key] = tools === undefined ? { ...scoped, facts } : { ...scoped, facts, tools };
  }
  return { version: STORE_VERSION, servers };
}

/**
 * Replaces the store file atomically: a private temp file in the same directory, fsync, rename over the old
 * one, then fsync of the directory. Readers see the old file or the new, never a half-written one; the file
 * ends mode 0600 whatever mode it had, and a missing directory is created 0700.
 */
export async function writeStoreFile(path: string, data: StoreData): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const servers: Record<string, TrustRecord> = {};
  for (const id of Object.keys(data.servers).sort()) servers[id] = data.servers[id]!;
  const text = `${JSON.stringify({ version: STORE_VERSION, servers }, null, 2)}\n`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.chmod(0o600); // the umask may have narrowed the mode, never widened it; be exact anyway
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    known.set(path, { id: await fileId(path), data: structuredClone({ version: STORE_VERSION, servers }) });
  } catch (err) {
    await rm(tmp, { force: true });
    throw new TrustStoreError(
      'io_error',
      path,
      `cannot write trust store ${path}: ${(err as Error).message}`,
    );
  }
  await syncDir(dir);
}

// Makes the rename itself durable; some file systems refuse to open a directory for sync, which is harmless.
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // best effort
  }
}

/** Stored remote facts without the keys zod left undefined. */
function remoteFacts(remote: {
  url: string;
  headers: Record<string, string>;
  headersAsWritten?: Record<string, string> | undefined;
}): NonNullable<FingerprintFacts['remote']> {
  const { headersAsWritten, ...rest } = remote;
  return headersAsWritten === undefined ? rest : { ...rest, headersAsWritten };
}
