import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { LineCounter, parseAllDocuments } from 'yaml';
import { isRecord } from '../../src/framing/is-record.js';

/** One object of a manifest file, and where it starts. */
export interface Manifest {
  file: string;
  line: number;
  object: Record<string, unknown>;
}

/** The kinds the manifests may hold, each with the schema of the Kubernetes API it is checked against. */
const MODELS: Record<string, { apiVersion: string; make: (data: never) => { validate(): void } }> = {
  Namespace: { apiVersion: Namespace.apiVersion, make: (d) => new Namespace(d) },
  ConfigMap: { apiVersion: ConfigMap.apiVersion, make: (d) => new ConfigMap(d) },
  Service: { apiVersion: Service.apiVersion, make: (d) => new Service(d) },
  Deployment: { apiVersion: Deployment.apiVersion, make: (d) => new Deployment(d) },
  PodDisruptionBudget: {
    apiVersion: PodDisruptionBudget.apiVersion,
    make: (d) => new PodDisruptionBudget(d),
  },
};

/** Every `.yaml` file of `dir`, each document of each, with the problems of reading them as `file:line: …`. */
export function readManifests(dir: string): { manifests: Manifest[]; problems: string[] } {
  const manifests: Manifest[] = [];
  const problems: string[] = [];
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const lines = new LineCounter();
    for (const doc of parseAllDocuments(text, { lineCounter: lines })) {
      const line = lines.linePos(doc.contents?.range[0] ?? 0).line;
      for (const err of doc.errors)
        problems.push(`${file}:${lines.linePos(err.pos[0]).line}: ${err.message}`);
      const object: unknown = doc.toJS();
      if (object === null || object === undefined) continue;
      if (!isRecord(object)) problems.push(`${file}:${line}: a document must be a mapping`);
      else manifests.push({ file, line, object });
    }
  }
  return { manifests, problems };
}

/**
 * What is wrong with one object against the Kubernetes schema of its kind: an unknown kind, another
 * `apiVersion` than the kind's, or the schema's own messages. Empty when it is valid.
 */
export function schemaProblems(m: Manifest): string[] {
  const { kind, apiVersion } = m.object;
  const at = `${m.file}:${m.line}`;
  if (kind === 'Kustomization') return [];
  const model = typeof kind === 'string' ? MODELS[kind] : undefined;
  if (model === undefined) return [`${at}: kind ${String(kind)} is not one these manifests may use`];
  if (apiVersion !== model.apiVersion)
    return [`${at}: ${kind} is apiVersion ${model.apiVersion}, not ${String(apiVersion)}`];
  try {
    model.make(m.object as never).validate();
    return [];
  } catch (err) {
    return [`${at}: ${kind}: ${(err as Error).message}`];
  }
}

/** The only object of `kind`, typed as the caller reads it; throws when there is none or more than one. */
export function theOne<T>(manifests: readonly Manifest[], kind: string): T {
  const found = manifests.filter((m) => m.object['kind'] === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0]!.object as T;
}
