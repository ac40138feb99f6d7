// What `check` asks the engine of each container server, starting nothing: does the engine answer, and does it
// hold the image? Each answer that stops a start is a located problem of that server, like a missing command.
import type { ConfigReading } from '../config/parse-config.js';
import type { ServerConfig } from '../config/types.js';
import { type EngineProbe, PROBE_TIMEOUT_MS, probeEngine } from '../container/engine-probe.js';
import type { ContainerSettings } from '../container/settings.js';
import { formatBytes } from '../framing/utf8-cap.js';
import { dotted, type LocatedProblem } from '../registry/located-yaml.js';

/** The engines' answers: the problems, and the image id found for each server that has its image. */
export interface ContainerFindings {
  problems: LocatedProblem[];
  imageIds: Map<string, string>;
}

/** A probe, replaceable so the rendering can be tested without an engine. */
export type Probe = (address: string, image: string, timeoutMs: number) => Promise<EngineProbe>;

/** Probes every enabled container server's engine and image at once, each within `timeoutMs`. */
export async function containerFindings(
  reading: Pick<ConfigReading, 'config' | 'serverPaths' | 'locate'>,
  probe: Probe = probeEngine,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ContainerFindings> {
  const findings: ContainerFindings = { problems: [], imageIds: new Map() };
  const { config } = reading;
  if (!config) return findings;
  const asked = config.servers.map(async (server, i) => {
    const path = reading.serverPaths[i];
    const c = server.container;
    // An engine address that could not be resolved is a problem of the file already.
    if (!c || server.disabled || path === undefined || c.engine === '') return;
    const answer = await probe(c.engine, c.image, timeoutMs);
    if (answer.ok) {
      findings.imageIds.set(server.id, answer.imageId);
      return;
    }
    // An image the start will pull is not missing yet.
    if (answer.code === 'IMAGE_MISSING' && c.pull !== 'never') return;
    const field = answer.code === 'IMAGE_MISSING' ? 'image' : 'engine';
    const at = [...path, 'container', field];
    findings.problems.push({
      source: config.source,
      ...reading.locate(at),
      path: dotted(at),
      message: describe(answer.code, answer.detail, c),
      code: answer.code,
    });
  });
  await Promise.all(asked);
  return findings;
}

function describe(
  code: 'ENGINE_UNREACHABLE' | 'IMAGE_MISSING',
  detail: string,
  c: ContainerSettings,
): string {
  if (code === 'ENGINE_UNREACHABLE') return `no container engine answers at ${c.engine}: ${detail}`;
  const image = JSON.stringify(c.image);
  return (
    `image ${image} is not in the engine at ${c.engine}, and pull is never: pull it there (podman pull ` +
    `${c.image}, or docker pull), build or load it there, or set pull: missing`
  );
}

/** The summary line of a container server: its image, engine and the bounds it runs within. */
export function containerLine(server: ServerConfig, imageId: string | undefined): string {
  const c = server.container!;
  const parts = [
    `container ${c.image}${imageId ? ` (${imageId.slice(0, 19)})` : ''} at ${c.engine}`,
    `network ${c.network}`,
    c.readOnly ? 'read-only root' : 'writable root',
  ];
  const bounds = [
    c.memoryBytes !== undefined ? `memory ${formatBytes(c.memoryBytes)}` : undefined,
    c.cpus !== undefined ? `cpus ${c.cpus}` : undefined,
    c.pids !== undefined ? `pids ${c.pids}` : undefined,
  ].filter((b) => b !== undefined);
  if (bounds.length > 0) parts.push(bounds.join(', '));
  if (c.user !== undefined) parts.push(`user ${c.user}`);
  if (c.workdir !== undefined) parts.push(`workdir ${c.workdir}`);
  if (c.mounts.length > 0) parts.push(`${c.mounts.length} mount(s)`);
  return parts.join('; ');
}
