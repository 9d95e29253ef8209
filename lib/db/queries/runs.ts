import type { PrismaClient, RunMode, RunStatus } from "@/lib/generated/prisma/client";
import { getDb } from "@/lib/db/client";

export type RunListItem = {
  id: number;
  slug: string;
  name: string;
  mode: RunMode;
  status: RunStatus;
  createdAt: Date;
  generationCount: number;
  /** Runs launched together to be compared (the demo trio); null for a run on its own. */
  compareGroup: string | null;
};

export type ListRunsOptions = {
  limit?: number;
  includeArchived?: boolean;
  db?: PrismaClient;
};

export async function listRuns(options: ListRunsOptions = {}): Promise<RunListItem[]> {
  const db = options.db ?? getDb();
  const runs = await db.run.findMany({
    where: options.includeArchived ? {} : { status: "ACTIVE" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? 100,
    select: {
      id: true,
      slug: true,
      name: true,
      mode: true,
      status: true,
      createdAt: true,
      compareGroup: true,
      _count: { select: { generations: true } },
    },
  });
  return runs.map(({ _count, ...run }) => ({ ...run, generationCount: _count.generations }));
}

export type RunDetail = {
  id: number;
  slug: string;
  name: string;
  mode: RunMode;
  status: RunStatus;
  environment: string;
  agent: string;
  createdAt: Date;
  /** The validated run config as stored (defaults filled in at creation). */
  config: unknown;
};

export type GetRunBySlugOptions = { slug: string; db?: PrismaClient };

/** The run a `/runs/[slug]` view shows, or null: a malformed slug is just an unknown one. */
export async function getRunBySlug(options: GetRunBySlugOptions): Promise<RunDetail | null> {
  if (!isPlausibleSlug(options.slug)) return null;
  const db = options.db ?? getDb();
  return db.run.findUnique({
    where: { slug: options.slug },
    select: {
      id: true,
      slug: true,
      name: true,
      mode: true,
      status: true,
      environment: true,
      agent: true,
      createdAt: true,
      config: true,
    },
  });
}

/** Slugs are made by slugify() in lib/db/mutations/rounds.ts: lowercase words, digits and dashes. */
export function isPlausibleSlug(slug: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,99}$/.test(slug);
}

export type ListRunsBySlugsOptions = { slugs: readonly string[]; db?: PrismaClient };

/**
 * Several runs by slug (archived ones included: a compare link stays valid), in the order asked;
 * `missing` lists the slugs that match no run, so a page can say which ones it could not show.
 */
export async function listRunsBySlugs(
  options: ListRunsBySlugsOptions,
): Promise<{ runs: RunDetail[]; missing: string[] }> {
  const plausible = options.slugs.filter(isPlausibleSlug);
  const db = options.db ?? getDb();
  const found = plausible.length
    ? await db.run.findMany({
        where: { slug: { in: plausible } },
        select: {
          id: true,
          slug: true,
          name: true,
          mode: true,
          status: true,
          environment: true,
          agent: true,
          createdAt: true,
          config: true,
        },
      })
    : [];
  const bySlug = new Map(found.map((run) => [run.slug, run]));
  return {
    runs: options.slugs.flatMap((slug) => bySlug.get(slug) ?? []),
    missing: options.slugs.filter((slug) => !bySlug.has(slug)),
  };
}

export type ListComparableSlugsOptions = { runId: number; db?: PrismaClient };

/** The slugs of the runs launched together with this one (itself included, oldest first). */
export async function listComparableSlugs(options: ListComparableSlugsOptions): Promise<string[]> {
  const db = options.db ?? getDb();
  const run = await db.run.findUnique({
    where: { id: options.runId },
    select: { slug: true, compareGroup: true },
  });
  if (!run) return [];
  if (!run.compareGroup) return [run.slug];
  const group = await db.run.findMany({
    where: { compareGroup: run.compareGroup },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { slug: true },
  });
  return group.map((r) => r.slug);
}
