/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (start-up does this too). */
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { isAppError } from "@/lib/errors";

try {
  const { DATABASE_URL } = getEnv();
  if (!DATABASE_URL) {
    console.error("DATABASE_URL is not set. (`npm start` migrates its embedded database itself.)");
    process.exit(1);
  }
  const result = await migrate({ connectionString: DATABASE_URL, log: console.log });
  console.log(`${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
} catch (error) {
  console.error(isAppError(error) ? `error: ${error.message}\n${error.hint ?? ""}` : error);
  process.exit(1);
}
