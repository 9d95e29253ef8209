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
