import { defineConfig } from "prisma/config";

// Prisma 7 reads the connection URL from here, not from schema.prisma. Only `prisma studio`
// and `prisma db pull` need it; migrations are applied by lib/db/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/coevolve" },
});
