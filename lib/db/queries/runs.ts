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
