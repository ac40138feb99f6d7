// Where an approval is kept in the store: a server id is a name within one config, so two projects that both call
// a server `files` must not share (and overwrite) each other's approval and tool pins.

/** The store key of server `id` of the config file `file` (absolute); a config built in memory keys by id alone. */
export function trustKey(id: string, file?: string): string {
  return file === undefined ? id : `${id}@${file}`;
}

/** The server id and config file a key names (ids never hold `@`, so the first one splits them). */
export function parseTrustKey(key: string): { id: string; config?: string } {
  const at = key.indexOf('@');
  return at < 0 ? { id: key } : { id: key.slice(0, at), config: key.slice(at + 1) };
}
