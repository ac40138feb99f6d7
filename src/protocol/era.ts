import {
  LEGACY_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  type PinnedProtocol,
  type ProtocolSetting,
} from '../config/protocol-setting.js';

export type { PinnedProtocol, ProtocolSetting };
export { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION };

/** `legacy`: the `initialize` handshake and sessions; `modern`: `server/discover` and per-request `_meta`. */
export type Era = 'legacy' | 'modern';

/** The era a pinned setting means; `undefined` for `auto`. */
export function pinnedEra(setting: ProtocolSetting | undefined): Era | undefined {
  if (setting === MODERN_PROTOCOL_VERSION) return 'modern';
  if (setting === LEGACY_PROTOCOL_VERSION) return 'legacy';
  return undefined;
}

/** The longest an `auto` probe waits for `server/discover` before a silent 2025 server is assumed. */
export function probeBoundMs(startupMs: number): number {
  return Math.max(1, Math.min(2000, Math.floor(startupMs / 3)));
}

/**
 * The era each configuration turned out to speak, kept for the life of one supervisor: a restart of the same
 * command line goes straight to that era's handshake instead of probing again.
 */
export class EraCache {
  private readonly eras = new Map<string, Era>();

  get(fingerprint: string): Era | undefined {
    return this.eras.get(fingerprint);
  }

  remember(fingerprint: string, era: Era): void {
    this.eras.set(fingerprint, era);
  }
}
