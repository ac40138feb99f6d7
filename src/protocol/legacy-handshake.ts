import type { InitializeResult } from './connection-types.js';
import { UNSUPPORTED_PROTOCOL_VERSION } from './discover.js';
import { RemoteError, SupervisorError } from './errors.js';
import { isSupportedProtocolVersion, LATEST_PROTOCOL_VERSION } from './protocol-version.js';

/**
 * The 2025 `initialize` request and the checks on its answer, as coded failures: HANDSHAKE_TIMEOUT,
 * HANDSHAKE_FAILED, UNSUPPORTED_PROTOCOL (a 2026-only server's refusal carries the versions it speaks as `data`).
 */
export async function initializeRequest(
  send: (params: Record<string, unknown>) => Promise<unknown>,
  capabilities: Record<string, unknown>,
  clientInfo: { name: string; version: string },
  timeoutMs: number,
): Promise<InitializeResult> {
  let raw: unknown;
  try {
    raw = await send({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo });
  } catch (err) {
    if (err instanceof SupervisorError && err.code === 'REQUEST_TIMEOUT') {
      throw new SupervisorError('HANDSHAKE_TIMEOUT', `no answer to initialize within ${timeoutMs} ms`);
    }
    if (err instanceof RemoteError && err.code === UNSUPPORTED_PROTOCOL_VERSION) {
      throw new SupervisorError('UNSUPPORTED_PROTOCOL', `initialize refused: ${err.message}`, err.data);
    }
    if (err instanceof RemoteError) {
      throw new SupervisorError('HANDSHAKE_FAILED', `initialize refused: ${err.code}: ${err.message}`);
    }
    throw err;
  }
  const result = raw as Partial<InitializeResult> | null;
  if (typeof result !== 'object' || result === null || typeof result.protocolVersion !== 'string') {
    throw new SupervisorError('HANDSHAKE_FAILED', 'initialize answered without a protocolVersion');
  }
  if (!isSupportedProtocolVersion(result.protocolVersion)) {
    throw new SupervisorError(
      'UNSUPPORTED_PROTOCOL',
      `server speaks protocol ${JSON.stringify(result.protocolVersion)}, which this client does not support`,
    );
  }
  return {
    protocolVersion: result.protocolVersion,
    capabilities: typeof result.capabilities === 'object' && result.capabilities ? result.capabilities : {},
    ...(result.serverInfo ? { serverInfo: result.serverInfo } : {}),
    ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
  };
}
