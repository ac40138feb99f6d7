import type { ServerConfig } from '../config/types.js';
import { buildChildEnv } from '../process/child-env.js';
import { type ApprovalPlace, ApprovalQueue } from './approval-queue.js';
import { type ApprovalRequest, buildApprovalRequest } from './approval-request.js';
import { computeFingerprint } from './fingerprint.js';
import { checkPins, type PinnableTool, pinsFor } from './tool-pins.js';
import { trustKey } from './trust-key.js';
import { TrustStore } from './trust-store.js';

/** The gate's answer for one launch: run it, or refuse it (the fingerprint is what a person would approve). */
export type GateVerdict = { ok: true } | { ok: false; fingerprint: string };

export interface TrustGateOptions {
  storePath?: string | undefined;
  /** The config file the servers come from: approvals are kept per file and id (`trust-key.ts`). */
  scope?: string | undefined;
  approve?: ((request: ApprovalRequest) => boolean | Promise<boolean>) | undefined;
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Told about held tools, corrupt stores and failed approvals, so hosts see why a server is untrusted. */
  notice(server: string, message: string): void;
  /** Told which tools were held back, so a `tools { changed }` event goes out. */
  held(server: string, names: string[]): void;
}

/**
 * Trust on first use: a server spawns only when the fingerprint of its exact launch is in the store, or `approve`
 * says yes (then it is stored). Its tools are pinned at first sight; a changed or added tool is held back until
 * approved. Every failure to decide is a refusal, never a silent trust.
 */
export class TrustGate {
  private store: Promise<TrustStore> | undefined;
  /** `approve` is asked one question at a time, launches in the order their checks began (config order). */
  private readonly queue = new ApprovalQueue();
  /** The last tool check of each server, which the next one waits for. */
  private readonly toolChecks = new Map<string, Promise<void>>();

  constructor(private readonly opts: TrustGateOptions) {}

  /**
   * Decides whether this launch may run; asked before every spawn (a changed binary asks again). `asking` is told
   * when the question is put to `approve`, its turn come.
   */
  async check(server: ServerConfig, asking?: () => void): Promise<GateVerdict> {
    const place = this.queue.place();
    let fingerprint = '';
    try {
      const childPath = buildChildEnv(this.opts.hostEnv, server.inheritEnv, server.env).PATH;
      const fp = await computeFingerprint(server, childPath !== undefined ? { pathEnv: childPath } : {});
      fingerprint = fp.fingerprint;
      const store = await this.open();
      const key = trustKey(server.id, this.opts.scope);
      if (store.isTrusted(key, fingerprint)) return { ok: true };
      const request = buildApprovalRequest(
        'server',
        server.id,
        fp.facts,
        fingerprint,
        store.get(key),
        undefined,
        server.env,
      );
      if (!(await this.ask(place, request, asking))) return { ok: false, fingerprint };
      await store.approve(key, fingerprint, fp.facts);
      return { ok: true };
    } catch (err) {
      this.opts.notice(server.id, `trust check failed: ${(err as Error).message}`);
      return { ok: false, fingerprint };
    } finally {
      place.pass();
    }
  }

  /**
   * The tools a server may expose now: pinned at first sight, changed or added ones held until approved. One
   * server's checks run one after another: a re-list that overlapped the first listing's pinning would otherwise
   * also see "first sight" and pin an added tool nobody was asked about.
   */
  filterTools<T extends PinnableTool>(server: ServerConfig, tools: readonly T[]): Promise<T[]> {
    // The place in the approval line is taken now, so questions keep the order in which checks began.
    const place = this.queue.place();
    const before = this.toolChecks.get(server.id) ?? Promise.resolve();
    const run = before.then(() => this.filterToolsInTurn(place, server, tools));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.toolChecks.set(server.id, settled);
    void settled.then(() => {
      if (this.toolChecks.get(server.id) === settled) this.toolChecks.delete(server.id);
    });
    return run;
  }

  private async filterToolsInTurn<T extends PinnableTool>(
    place: ApprovalPlace,
    server: ServerConfig,
    tools: readonly T[],
  ): Promise<T[]> {
    try {
      const store = await this.open();
      const key = trustKey(server.id, this.opts.scope);
      const record = store.get(key);
      if (!record) return [...tools];
      const check = checkPins(store.toolPins(key), tools);
      if (check.firstSight) {
        await store.pinTools(key, pinsFor(tools));
        return [...tools];
      }
      if (check.held.length === 0) return check.pinned;
      const names = check.held.map((t) => t.name);
      const request = buildApprovalRequest(
        'tools',
        server.id,
        record.facts,
        record.fingerprint,
        record,
        names,
        server.env,
      );
      if (await this.ask(place, request)) {
        await store.pinTools(key, { ...store.toolPins(key), ...pinsFor(check.held) });
        return [...tools];
      }
      this.opts.held(server.id, names);
      this.opts.notice(server.id, `tools held back until approved: ${names.join(', ')}`);
      return check.pinned;
    } catch (err) {
      this.opts.notice(server.id, `tool pinning failed: ${(err as Error).message}; exposing no tools`);
      return [];
    } finally {
      place.pass();
    }
  }

  /** Questions not yet asked are answered no: after a stop nobody is asked about a server that will not run. */
  close(): void {
    this.queue.close();
  }

  private ask(place: ApprovalPlace, request: ApprovalRequest, asking?: () => void): Promise<boolean> {
    const approve = this.opts.approve;
    if (!approve) return Promise.resolve(false);
    return place.ask(() => {
      asking?.();
      return approve(request);
    });
  }

  private open(): Promise<TrustStore> {
    // A corrupt store rejects every check (and is retried next time, so a repaired file is picked up).
    this.store ??= TrustStore.open(this.opts.storePath);
    const opening = this.store;
    opening.catch(() => {
      if (this.store === opening) this.store = undefined;
    });
    return opening;
  }
}
