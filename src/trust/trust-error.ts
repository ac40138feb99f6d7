/** Codes of trust-store failures. */
export type TrustStoreErrorCode = 'corrupt_store' | 'io_error' | 'locked' | 'not_trusted';

/** A trust-store failure; `path` is the store file it concerns. */
export class TrustStoreError extends Error {
  override readonly name = 'TrustStoreError';
  constructor(
    readonly code: TrustStoreErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}
