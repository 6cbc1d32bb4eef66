/**
 * Graceful shutdown on SIGTERM and SIGINT (used by `toolhost serve`): the first signal closes the
 * server (stop accepting, finish in-flight requests, close storage) and lets the process exit with
 * code 0 (1 when closing failed); a second signal while closing exits at once with code 1.
 */

/** Something that shuts down gracefully. */
export interface Closable {
  close(): Promise<void>;
}

/** Where shutdown progress is reported. */
export interface ShutdownLog {
  info(message: string): void;
  error(details: object, message: string): void;
}

/** The signals that shut the server down. */
export const SHUTDOWN_SIGNALS = ["SIGTERM", "SIGINT"] as const;

/** Closes `server` on the first SHUTDOWN_SIGNALS signal; answers a function that removes the listeners. */
export function closeOnSignals(server: Closable, log: ShutdownLog): () => void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing) {
      log.info(`${signal} received again; exiting now`);
      process.exit(1);
    }
    closing = true;
    log.info(`${signal} received; shutting down`);
    server.close().then(
      () => {
        process.exitCode ??= 0;
        remove();
      },
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exitCode = 1;
        remove();
      },
    );
  };
  const remove = (): void => {
    for (const signal of SHUTDOWN_SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);
  return remove;
}
