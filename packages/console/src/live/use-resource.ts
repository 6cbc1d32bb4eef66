/**
 * Loading data for a page: the latest answer, the latest error, a reload, and optional polling that
 * keeps the shown data while it refreshes (no flicker). Answers that arrive after a newer request was
 * made are dropped.
 */

import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiError } from "../api/api-error.js";

/** A loaded resource. */
export interface Resource<T> {
  readonly data: T | undefined;
  readonly error: ApiError | Error | undefined;
  readonly loading: boolean;
  readonly reload: () => void;
  /** Changes the loaded data in place (nothing while none is loaded); a later answer of `reload` replaces it. */
  readonly update: (change: (data: T) => T) => void;
}

/**
 * Loads `load()` now and whenever `key` changes (a text naming what is loaded, such as the run ID);
 * with `pollMs`, again every `pollMs` while `poll` is true.
 */
export function useResource<T>(
  load: () => Promise<T>,
  key: string,
  options: { pollMs?: number; poll?: boolean } = {},
): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(() => {
    const request = ++latest.current;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (request !== latest.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (request !== latest.current) return;
        setError(failure instanceof Error ? failure : new Error(String(failure)));
        setLoading(false);
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what `load` reads; a new key loads again.
  useEffect(() => {
    setData(undefined);
    reload();
  }, [key, reload]);

  const { pollMs, poll = true } = options;
  useEffect(() => {
    if (pollMs === undefined || !poll) return;
    const timer = window.setInterval(reload, pollMs);
    return () => window.clearInterval(timer);
  }, [pollMs, poll, reload]);

  const update = useCallback((change: (data: T) => T) => {
    setData((current) => (current === undefined ? current : change(current)));
  }, []);

  return { data, error, loading, reload, update };
}
