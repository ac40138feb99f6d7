/** The protocol version we ask for: the newest we implement. */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';

/** Every released MCP protocol version this client can speak, oldest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** True for a version the server may answer `initialize` with; anything else fails the start cleanly. */
export function isSupportedProtocolVersion(version: string): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
