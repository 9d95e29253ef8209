/**
 * Every React Query key comes from here, so invalidating "everything about a run" is one prefix
 * and two components never disagree on a key's shape.
 */
export const queryKeys = {
  all: ["coevolve"] as const,
  run: (slug: string) => [...queryKeys.all, "run", slug] as const,
  runProgress: (slug: string) => [...queryKeys.run(slug), "progress"] as const,
};
