// `secret set` and `secret delete`: items of the OS keyring that a config names as ${keyring:SERVICE/ACCOUNT}.
import { deleteKeyring, storeKeyring } from '../../secrets/keyring.js';
import { type KeyringItem, keyringRef, parseKeyringItem } from '../../secrets/keyring-item.js';
import { CliError, usageError } from '../errors.js';
import { readValue, type ValueStreams } from './read-value.js';

type Write = (s: string) => void;
const out: Write = (s) => void process.stdout.write(s);

/** `secret set SERVICE/ACCOUNT`: stores the value read from stdin, replacing what the item held. */
export async function secretSetCommand(
  name: string,
  write: Write = out,
  streams?: ValueStreams,
): Promise<number> {
  const item = itemOf(name);
  const value = await readValue(name, streams);
  if (value === '') throw new CliError('empty_value', `refusing to store an empty value as ${name}`);
  const stored = await storeKeyring(item.service, item.account, value);
  if (!stored.ok) throw new CliError('secret_unavailable', `cannot store ${name}: ${stored.failure.detail}`);
  write(`stored ${name} in the OS keyring; a config reads it as ${keyringRef(item)}\n`);
  return 0;
}

/** `secret delete SERVICE/ACCOUNT`: removes the item; one that is not there is a failure, so a typo shows. */
export async function secretDeleteCommand(name: string, write: Write = out): Promise<number> {
  const item = itemOf(name);
  const deleted = await deleteKeyring(item.service, item.account);
  if (!deleted.ok) {
    const missing = deleted.failure.reason === 'keyring_missing';
    throw new CliError(
      missing ? 'keyring_missing' : 'secret_unavailable',
      missing
        ? `no item ${name} in the OS keyring: nothing deleted`
        : `cannot delete ${name}: ${deleted.failure.detail}`,
    );
  }
  write(`deleted ${name} from the OS keyring\n`);
  return 0;
}

function itemOf(name: string): KeyringItem {
  const item = parseKeyringItem(name);
  if (item === undefined)
    throw usageError(
      `expected SERVICE/ACCOUNT, both non-empty (as in \${keyring:SERVICE/ACCOUNT}), got '${name}'`,
    );
  return item;
}
