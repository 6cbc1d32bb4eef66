/**
 * Ordered, bounded concurrency: start the work for a few items ahead, hand results back strictly in
 * item order. `toolhost measure` reads thousands of files this way — at most `limit` open at once,
 * output in argument order, each line written as soon as its turn comes.
 */

/**
 * Yields `work(item)` for each item, in item order, with at most `limit` calls in flight. A rejection
 * surfaces when its turn comes (never as an unhandled rejection while earlier results are awaited).
 */
export async function* mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<R, void, undefined> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer; got ${limit}`);
  const pending: Promise<R>[] = [];
  let next = 0;
  const startNext = (): void => {
    const promise = work(items[next++] as T);
    // Marks the rejection handled now; it is rethrown by the `await` below, in order.
    promise.catch(() => undefined);
    pending.push(promise);
  };
  while (next < items.length && pending.length < limit) startNext();
  while (pending.length > 0) {
    const result = await (pending.shift() as Promise<R>);
    if (next < items.length) startNext();
    yield result;
  }
}
