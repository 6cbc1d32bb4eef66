/**
 * Background loops under supervision. A loop is a promise nobody awaits until `stop()`: anything it
 * threw would surface as an unhandled rejection and end the host process. Here a throw fails the
 * runner instead (`internal_failure`, the error as `cause`), and the loop's promise never rejects.
 */

import { asRunnerError, type RunnerError } from "../errors.js";

/** Runs `loop` in the background; a throw fails the runner through `fail`. The promise never rejects. */
export function superviseLoop(
  name: string,
  loop: () => Promise<void>,
  fail: (error: RunnerError) => void,
): Promise<void> {
  return Promise.resolve()
    .then(loop)
    .catch((error: unknown) => {
      try {
        fail(asRunnerError(error, `the ${name} loop`));
      } catch {
        // `fail` never throws; should it, the loop's promise must still not reject.
      }
    });
}
