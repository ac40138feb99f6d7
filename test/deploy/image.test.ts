import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type Docker from 'dockerode';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { engineClient } from '../../src/container/engine-client.js';
import { ROOT } from '../cli/helpers.js';
import { describeEngine, TEST_IMAGE } from '../container/engine-facts.js';
import { fetchAs } from './fetch-as.js';
import { buildImage, makeContext } from './image-context.js';
import { readManifests, theOne } from './manifests.js';

// The image is built FROM the test image (node alone, no registry here) through BASE, and run as the Deployment
// runs it: its args, a read-only root, the ConfigMap's config and a trust store made as docs/scale-out.md says.

const { manifests } = readManifests(join(ROOT, 'deploy', 'kubernetes'));
const pod = theOne<IDeployment>(manifests, 'Deployment').spec!.template.spec!;
const container = pod.containers[0]!;
const configMap = theOne<IConfigMap>(manifests, 'ConfigMap');
const mountOf = (volume: string) => container.volumeMounts!.find((m) => m.name === volume)!.mountPath;
const TOKEN = 'deploy-test-token-0123456789';
const NOTES_TOOLS = ['notes.add_note', 'notes.list_notes', 'notes.word_count'];

describeEngine('the image of deploy/Containerfile', (engine) => {
  const tag = `localhost/mcp-supervisor-deploy-test:${Math.random().toString(36).slice(2, 8)}`;
  const docker = engineClient(engine, 0);
  const made: Docker.Container[] = [];
  let dir: string;
  let etc: string;
  let secrets: string;

  /** A container of the image, on a read-only root with the state directory's volume as the pod has it. */
  const start = async (cmd: string[], binds: string[], host: Docker.HostConfig = {}) => {
    const c = await docker.createContainer({
      Image: tag,
      Cmd: cmd,
      // A key as the Secret holds one: 32 bytes in hex.
      Env: [`MCP_SESSION_KEY=${'ab'.repeat(32)}`],
      ExposedPorts: { '8080/tcp': {} },
      HostConfig: { ReadonlyRootfs: true, Binds: binds, Tmpfs: { [mountOf('state')]: 'rw' }, ...host },
    });
    made.push(c);
    await c.start();
    return c;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sup-image-'));
    const context = join(dir, 'context');
    etc = join(dir, 'etc');
    secrets = join(dir, 'secrets');
    for (const d of [context, etc, secrets]) mkdirSync(d);
    writeFileSync(join(etc, 'config.yaml'), configMap.data!['config.yaml']!);
    writeFileSync(join(secrets, 'token'), `${TOKEN}\n`);
    await makeContext(context);
    expect(await buildImage(docker, context, tag, TEST_IMAGE)).toEqual([]);
  }, 240_000);

  afterAll(async () => {
    for (const c of made) await c.remove({ force: true }).catch(() => {});
    await docker
      .getImage(tag)
      .remove({ force: true })
      .catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('is built on BASE, and runs as the non-root user the Deployment names', async () => {
    const [image, base] = await Promise.all([
      docker.getImage(tag).inspect(),
      docker.getImage(TEST_IMAGE).inspect(),
    ]);
    expect(image.RootFS.Layers?.slice(0, base.RootFS.Layers?.length)).toEqual(base.RootFS.Layers);
    expect(image.Config.User).toBe(`${pod.securityContext?.runAsUser}:${pod.securityContext?.runAsGroup}`);
    expect(image.Config.ExposedPorts).toHaveProperty('8080/tcp');
  });

  it("makes the trust store of the ConfigMap's config, its tools pinned, with `tools` and a volume", async () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    // The image's user writes the store; the directory is the host's.
    chmodSync(out, 0o777);
    const config = `${mountOf('config')}/config.yaml`;
    const c = await start(
      ['tools', config, '--trust-all', '--store', '/out/trust.json', '--state-dir', '/tmp/state'],
      [`${etc}:${mountOf('config')}:ro`, `${out}:/out`],
      { NetworkMode: 'none' },
    );
    expect(await c.wait()).toMatchObject({ StatusCode: 0 });
    const store = JSON.parse(readFileSync(join(out, 'trust.json'), 'utf8')) as {
      servers: Record<string, { tools?: Record<string, string> }>;
    };
    expect(Object.keys(store.servers)).toEqual([`notes@${config}`]);
    expect(Object.keys(store.servers[`notes@${config}`]?.tools ?? {}).sort()).toEqual([
      'add_note',
      'list_notes',
      'word_count',
    ]);
    // As a ConfigMap mounts it: anyone's to read, no one's to write.
    copyFileSync(join(out, 'trust.json'), join(etc, 'trust.json'));
    chmodSync(join(etc, 'trust.json'), 0o444);
  }, 60_000);

  it("serves the Deployment's args: /healthz without a token, the tools with the Secret's, a clean stop", async () => {
    const c = await start(
      container.args!,
      [`${etc}:${mountOf('config')}:ro`, `${secrets}:${mountOf('tokens')}:ro`],
      { PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] } },
    );
    const port = Number((await c.inspect()).NetworkSettings.Ports['8080/tcp']?.[0]?.HostPort);
    const fetchIt = fetchAs('localhost:8080', port);
    const health = async () => (await fetchIt('http://localhost:8080/healthz')).json();
    let answered: unknown;
    for (let i = 0; i < 100 && answered === undefined; i++)
      answered = await health().catch(() => new Promise((r) => setTimeout(r, 200)));
    expect(answered).toMatchObject({ status: 'ok' });
    expect((await fetchIt('http://localhost:8080/mcp', { method: 'POST', body: '{}' })).status).toBe(401);

    const client = new Client({ name: 'deploy-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://localhost:8080/mcp'), {
        fetch: fetchIt,
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(NOTES_TOOLS);
      const added = await client.callTool({ name: 'notes.add_note', arguments: { text: 'in a pod' } });
      expect(added.content).toEqual([{ type: 'text', text: 'note #1 added' }]);
    } finally {
      await client.close();
    }
    expect(await health()).toMatchObject({ servers: [{ id: 'notes', state: 'ready' }] });

    await c.stop({ t: 30 });
    expect((await c.inspect()).State.ExitCode).toBe(0);
    expect((await c.logs({ stdout: true, stderr: true })).toString()).toMatch(/"msg":"stopped"/);
  }, 60_000);
});
