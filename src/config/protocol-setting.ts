// What a server's `protocol:` key may say. The config names the eras' revisions itself; src/protocol/era.ts
// builds on these, since the protocol layer may read the config and not the other way round.

/** The first (and so far only) revision of the 2026 era: no `initialize`, `_meta` on every request. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The newest 2025-era revision: the one `initialize` asks for. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** `auto` negotiates; the others pin an era. */
export const PROTOCOL_SETTINGS = ['auto', LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION] as const;
export type ProtocolSetting = (typeof PROTOCOL_SETTINGS)[number];
export type PinnedProtocol = Exclude<ProtocolSetting, 'auto'>;
