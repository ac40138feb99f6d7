/**
 * Where a secret is kept, as a config string names it:
 * - `env`: `${NAME}`, `${env:NAME}` — a variable of the environment the config is read with;
 * - `file`: `${file:PATH}` — a file's contents, one trailing newline dropped (a relative path is against the
 *   config file's directory);
 * - `keyring`: `${keyring:SERVICE/ACCOUNT}` — an item of the OS keyring (on the Secret Service, the attributes
 *   `service` and `username`).
 */
export type SecretReference =
  | { kind: 'env'; name: string; ref: string }
  | { kind: 'file'; path: string; ref: string }
  | { kind: 'keyring'; service: string; account: string; ref: string };

/** Why a secret could not be read, as data: never its value, always the reference as written. */
export interface SecretFailure {
  /** `SECRET_UNAVAILABLE` for every reason; `reason` says which. */
  code: 'SECRET_UNAVAILABLE';
  reason:
    | 'not_set'
    | 'file_missing'
    | 'file_unreadable'
    | 'keyring_missing'
    | 'keyring_unreachable'
    | 'malformed';
  ref: string;
  /** For people: what was looked at and what was found, never a value. */
  detail: string;
}
