/** Where the supervisor tells a host's log what happened (a line a person reads; events carry the data). */
export interface SupervisorLogger {
  info?(message: string): void;
  warn?(message: string): void;
}
