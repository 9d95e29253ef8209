/**
 * `npm run worker`: runs round stages from the Postgres queue at DATABASE_URL. `npm start` runs
 * one; start more (here or on other machines, against the same database) to share rollouts.
 */
import { getEnv } from "@/lib/env";
import { startWorker } from "@/lib/jobs/worker";

const log = (line: string) => console.log(`[worker ${process.pid}] ${line}`);
const { DATABASE_URL } = getEnv();
if (!DATABASE_URL) {
  console.error("DATABASE_URL is not set. (`npm start` starts a worker against its own database.)");
  process.exit(1);
}

const worker = await startWorker({ connectionString: DATABASE_URL, log });
let isStopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (isStopping) return;
    isStopping = true;
    log("stopping");
    void worker.stop().then(() => process.exit(0));
  });
}
