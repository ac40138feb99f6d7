import { parseSessionKey } from '../../config/session-key.js';
import type { SupervisorConfig } from '../../config/types.js';
import { readSecret } from '../../secrets/read.js';
import { readSecretFile } from '../../secrets/read-file.js';
import { resolveText } from '../../secrets/resolve.js';
import { CliError } from '../errors.js';

/**
 * The key that seals session ids, when one is given: `--session-key-file`, else `serve.sessionKey` (a secret it
 * names read now). Undefined without either: sessions then live in this process alone. A key that cannot be read
 * or is not 32 bytes stops `serve --http`, naming where it came from and never what it holds.
 */
export async function sessionKeyOf(
  config: SupervisorConfig,
  file: string | undefined,
): Promise<Buffer | undefined> {
  let text: string;
  let from: string;
  if (file !== undefined) {
    const read = await readSecretFile(file, `--session-key-file ${file}`);
    if (!read.ok) throw new CliError('secret_unavailable', read.failure.detail);
    text = read.value;
    from = `--session-key-file ${file}`;
  } else {
    const written = config.serve?.sessionKey;
    if (written === undefined) return undefined;
    from = `${config.source}: serve.sessionKey`;
    if (config.serve?.sessionKeySecret) {
      const read = await resolveText(written, readSecret);
      if (!read.ok) throw new CliError('secret_unavailable', `${from}: ${read.failure.detail}`);
      text = read.value;
    } else {
      text = written;
    }
  }
  const key = parseSessionKey(text);
  if (!key.ok) throw new CliError('secret_unavailable', `${from}: ${key.message}`);
  return key.key;
}
