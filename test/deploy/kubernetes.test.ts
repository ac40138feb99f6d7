import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IService } from 'kubernetes-models/v1/Service';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfig } from '../../src/config/parse-config.js';
import { BIN, ensureBuilt, ROOT } from '../cli/helpers.js';
import { type Manifest, readManifests, schemaProblems, theOne } from './manifests.js';

const DEPLOY = join(ROOT, 'deploy');
const KUBE = join(DEPLOY, 'kubernetes');
/** What `serve --http` spends stopping, once told to: the drain's delay, then at most its timeout (seconds). */
const DRAIN_DELAY_S = 5;
const DRAIN_TIMEOUT_S = 30;

const { manifests, problems } = readManifests(KUBE);
const deployment = theOne<IDeployment>(manifests, 'Deployment');
const pod = deployment.spec!.template.spec!;
const container = pod.containers[0]!;
const configMap = theOne<IConfigMap>(manifests, 'ConfigMap');

/** The value after `flag` in the container's args. */
const argOf = (flag: string) => container.args?.[(container.args?.indexOf(flag) ?? -2) + 1];

describe('the Kubernetes manifests in deploy/kubernetes', () => {
  it('read as YAML, every object valid against the Kubernetes schema of its kind', () => {
    expect(problems).toEqual([]);
    expect(manifests.map((m) => m.object['kind']).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'Kustomization',
      'Namespace',
      'PodDisruptionBudget',
      'Service',
    ]);
    expect(manifests.flatMap(schemaProblems)).toEqual([]);
  });

  it('refuse what the schemas refuse, located at the file and line of the object', () => {
    const bad: Manifest = { file: 'x.yaml', line: 3, object: { ...deployment, spec: { replicas: 'two' } } };
    expect(schemaProblems(bad)).toEqual([expect.stringMatching(/^x\.yaml:3: Deployment: .*replicas/)]);
    const crd: Manifest = {
      file: 'y.yaml',
      line: 1,
      object: { apiVersion: 'example.com/v1', kind: 'Widget' },
    };
    expect(schemaProblems(crd)).toEqual(['y.yaml:1: kind Widget is not one these manifests may use']);
  });

  it('are all named by the kustomization, and it names nothing else', () => {
    const kustomization = theOne<{ resources: string[] }>(manifests, 'Kustomization');
    const files = readdirSync(KUBE).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it('run at least two replicas, probed without a token: ready on /readyz, alive on /healthz', () => {
    expect(deployment.spec?.replicas).toBeGreaterThanOrEqual(2);
    const port = container.ports?.find((p) => p.containerPort === 8080);
    expect(port?.name).toBe('http');
    expect(container.readinessProbe?.httpGet).toMatchObject({ path: '/readyz', port: port?.name });
    expect(container.livenessProbe?.httpGet).toMatchObject({ path: '/healthz', port: port?.name });
    expect(container.readinessProbe?.httpGet?.httpHeaders).toBeUndefined();
    expect(container.livenessProbe?.httpGet?.httpHeaders).toBeUndefined();
  });

  it('give a stopping pod the time of its preStop, the drain delay and the drain timeout', () => {
    const preStop = container.lifecycle?.preStop?.sleep?.seconds;
    expect(preStop).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      (preStop ?? 0) + DRAIN_DELAY_S + DRAIN_TIMEOUT_S,
    );
  });

  it('run as a non-root user on a read-only root, without privileges, within resources', () => {
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources?.requests).toMatchObject({
      cpu: expect.anything(),
      memory: expect.anything(),
    });
    expect(container.resources?.limits?.['memory']).toBeDefined();
  });

  it('serve --http with flags the program has, on every address, the config and store from the ConfigMap', async () => {
    await ensureBuilt();
    const help = await promisify(execFile)(process.execPath, [BIN, 'serve', '--help']);
    const known = new Set(help.stdout.match(/--[a-z-]+/g));
    const args = container.args ?? [];
    expect(args[0]).toBe('serve');
    expect(args.filter((a) => a.startsWith('--') && !known.has(a))).toEqual([]);
    expect(argOf('--http')).toBe('0.0.0.0:8080');
    const mount = container.volumeMounts?.find((v) => v.name === 'config');
    const volume = pod.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.configMap?.name).toBe(configMap.metadata?.name);
    expect(mount?.readOnly).toBe(true);
    expect(args[1]).toBe(`${mount?.mountPath}/config.yaml`);
    expect(argOf('--store')).toBe(`${mount?.mountPath}/trust.json`);
    expect(Object.keys(configMap.data ?? {}).sort()).toEqual(['config.yaml', 'trust.json']);
    expect(JSON.parse(configMap.data?.['trust.json'] ?? '')).toMatchObject({ version: 1, servers: {} });
    // The state directory is written: it must sit on a volume, since the root is read-only.
    const writable = container.volumeMounts?.filter((v) => !v.readOnly).map((v) => v.mountPath) ?? [];
    expect(writable.some((dir) => argOf('--state-dir')?.startsWith(`${dir}/`))).toBe(true);
  });

  it("hold a config the program reads, whose token file is the tokens Secret's, and the session key from a Secret", () => {
    const text = configMap.data?.['config.yaml'] ?? '';
    // The pod's environment: the session key comes from its Secret (any 32 bytes here).
    const env = { MCP_SESSION_KEY: 'ab'.repeat(32) };
    const reading = readConfig(text, { source: 'config.yaml', env, baseDir: '/etc/mcp-supervisor' });
    expect(reading.problems).toEqual([]);
    expect(reading.config?.serve?.sessionKey).toBe(env.MCP_SESSION_KEY);
    const written = parse(text) as { serve: { auth: { tokens: { token: string }[] } } };
    const [tokenRef] = written.serve.auth.tokens.map((t) => t.token);
    const tokenFile = /^\$\{file:(.+)\/([^/]+)\}$/.exec(tokenRef ?? '');
    expect(tokenFile).not.toBeNull();
    const tokens = container.volumeMounts?.find((v) => v.mountPath === tokenFile?.[1]);
    const secret = pod.volumes?.find((v) => v.name === tokens?.name)?.secret;
    expect(secret?.secretName).toBeDefined();
    expect(secret?.items?.map((i) => i.path)).toContain(tokenFile?.[2]);
    expect(container.env?.find((e) => e.name === 'MCP_SESSION_KEY')?.valueFrom?.secretKeyRef).toMatchObject({
      name: expect.any(String),
      key: expect.any(String),
    });
  });

  it('expose the pods through a Service without ClientIP affinity, and keep one up through disruptions', () => {
    const labels = deployment.spec?.template.metadata?.labels;
    expect(deployment.spec?.selector.matchLabels).toEqual(labels);
    const services = manifests
      .filter((m) => m.object['kind'] === 'Service')
      .map((m) => m.object as unknown as IService);
    for (const service of services) {
      expect(service.spec?.sessionAffinity).not.toBe('ClientIP');
      expect(service.spec?.selector).toEqual(labels);
      expect(service.spec?.ports?.map((p) => p.targetPort)).toEqual(['http']);
    }
    const pdb = theOne<IPodDisruptionBudget>(manifests, 'PodDisruptionBudget');
    expect(pdb.spec?.selector?.matchLabels).toEqual(labels);
    expect(pdb.spec?.minAvailable).toBeGreaterThanOrEqual(1);
    expect(pdb.spec?.minAvailable).toBeLessThan(deployment.spec?.replicas ?? 0);
  });
});

describe('deploy/', () => {
  let files: string[];
  beforeAll(() => {
    files = readdirSync(DEPLOY, { recursive: true, encoding: 'utf8' }).filter((f) =>
      statSync(join(DEPLOY, f)).isFile(),
    );
  });

  it('never trusts every server: no --trust-all in any file', () => {
    expect(files).toContain('Containerfile');
    expect(files.filter((f) => readFileSync(join(DEPLOY, f), 'utf8').includes('--trust-all'))).toEqual([]);
  });
});
