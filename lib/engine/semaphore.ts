export type Semaphore = {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
};

/** At most `limit` tasks at once; waiters start in arrival order. */
export function createSemaphore(limit: number): Semaphore {
  let active = 0;
  const waiting: Array<() => void> = [];
  const acquire = () =>
    active < limit
      ? (active++, Promise.resolve())
      : new Promise<void>((resolve) => waiting.push(resolve));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get inFlight() {
      return active;
    },
  };
}
