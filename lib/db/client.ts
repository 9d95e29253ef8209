import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** One client per process; in dev, one across hot reloads too (they re-evaluate this module). */
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  const { DATABASE_URL } = getEnv();
  if (!DATABASE_URL) {
    throw new AppError("UNAVAILABLE", "DATABASE_URL is not set.", {
      hint: "Start the app with `npm start`, which runs an embedded Postgres when DATABASE_URL is unset.",
    });
  }
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: DATABASE_URL }) });
}

export function getDb(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}
