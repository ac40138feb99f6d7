import type { ServerConfig } from '../../config/types.js';
import { buildChildEnv } from '../../process/child-env.js';
import type { ExitInfo } from '../../process/server-process.js';
import type { RuntimeDeps } from './actors.js';
import { pinImage } from './container-launch.js';
import { readSecrets } from './secret-launch.js';

/** What the steps before a spawn decided: run this launch, end with this exit, refuse it, or nothing (it ended). */
export type LaunchDecision =
  | { kind: 'run'; server: ServerConfig; mask?: ((text: string) => string) | undefined }
  | { kind: 'exit'; exit: ExitInfo }
  | { kind: 'untrusted'; fingerprint: string }
  | { kind: 'gone' };

/**
 * The steps of a start before anything runs, in their order: a container's image read once as an id, the trust
 * gate (which fingerprints that id and the secrets' references), then the secrets read for this start only.
 * `ended` is the actor's end, `stopping` a STOP that came meanwhile; either makes the rest moot.
 */
export async function prepareLaunch(
  configured: ServerConfig,
  deps: Pick<RuntimeDeps, 'gate' | 'onSecretWarning' | 'secretDigests'>,
  asking: () => void,
  ended: () => boolean,
  stopping: () => boolean,
): Promise<LaunchDecision> {
  const pinned = await pinImage(configured);
  if (ended() || stopping()) return { kind: 'gone' };
  if (!pinned.ok) return { kind: 'exit', exit: pinned.exit };
  const gated = pinned.server;
  const verdict = await deps.gate(gated, asking);
  if (ended()) return { kind: 'gone' };
  if (!verdict.ok) return { kind: 'untrusted', fingerprint: verdict.fingerprint };
  if (stopping()) return { kind: 'gone' };
  const secrets = await readSecrets(gated);
  if (ended() || stopping()) return { kind: 'gone' };
  if (!secrets.ok) return { kind: 'exit', exit: secrets.exit };
  for (const warning of secrets.warnings) deps.onSecretWarning(gated.id, warning);
  deps.secretDigests?.started(gated.id, secrets.values);
  return { kind: 'run', server: secrets.server, mask: secrets.mask };
}

/**
 * What the server's environment is: a process gets the host's allowlist, `inheritEnv` and `env`; a container only
 * `inheritEnv` and `env` (its image keeps its own PATH and HOME); a `url:` server none.
 */
export function launchEnv(server: ServerConfig, hostEnv: RuntimeDeps['hostEnv']): Record<string, string> {
  if (server.remote) return {};
  if (!server.container) return buildChildEnv(hostEnv, server.inheritEnv, server.env);
  const env: Record<string, string> = {};
  for (const name of server.inheritEnv) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...server.env };
}
