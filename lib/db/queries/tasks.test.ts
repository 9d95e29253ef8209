import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseUrl } from "@/tests/support/db";
import {
  formatTrajectoryCursor,
  getTaskDetail,
  getTaskLineage,
  listTaskChildren,
  listTaskTrajectories,
  parseTrajectoryCursor,
  type TaskTrajectoryCursor,
} from "./tasks";
import { getGroup, getTrajectory, listGroupMembers, parseTrajectoryId } from "./trajectories";

vi.mock("server-only", () => ({}));

let pool: Pool;
beforeAll(() => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
});
afterAll(async () => {
  await pool.end();
});

const one = async <T>(sql: string, params: unknown[]): Promise<T> => {
  const { rows } = await pool.query(sql, params);
  return rows[0] as T;
};

type World = {
  runId: number;
  otherRunId: number;
  generationIds: number[];
  seed: number;
  child: number;
  grandchild: number;
  sibling: number;
  triggerOfChild: string;
  triggerOfGrandchild: string;
  otherTask: number;
  otherTrajectory: string;
};

async function insertRun(): Promise<number> {
  const slug = `tasks-${randomUUID()}`;
  const run = await one<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, '{"groupSize": 4}', now()) RETURNING id`,
    [slug],
  );
  return run.id;
}

async function insertTask(
  runId: number,
  generationId: number,
  fields: Partial<{ parent: number; relation: string; signalId: number; trigger: string }> & {
    key: string;
    instruction: string;
  },
): Promise<number> {
  const task = await one<{ id: number }>(
    `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
       instruction, spec, fingerprint, "parentTaskId", relation, "signalId", "signalKind",
       "triggerTrajectoryId")
     VALUES ($1, $2, $3, 'contacts', 2, 0.4, $4, $5, '{"world": {"seed": 3}}', $2, $6, $7, $8,
       CASE WHEN $8::int IS NULL THEN NULL ELSE 'BOUNDARY'::"SignalKind" END, $9::bigint)
     RETURNING id`,
    [
      runId,
      fields.key,
      generationId,
      fields.parent ? "SYNTHESIZED" : "SEED",
      fields.instruction,
      fields.parent ?? null,
      fields.relation ?? null,
      fields.signalId ?? null,
      fields.trigger ?? null,
    ],
  );
  return task.id;
}

async function insertTrajectory(
  generationId: number,
  taskId: number,
  purpose: string,
  sampleIndex: number,
  tools: string[],
  reward: number,
): Promise<string> {
  const steps = tools.map((tool, index) => ({
    index,
    tool,
    arguments: { n: index },
    observation: { ok: true },
    probability: 0.5,
    entropy: 1,
    candidateCount: 4,
    isError: false,
  }));
  const row = await one<{ id: string }>(
    `INSERT INTO "Trajectory" ("generationId", "taskId", purpose, "sampleIndex", steps, reward,
       success, "stepCount", "meanEntropy", "policyVersion")
     VALUES ($1, $2, $3::"TrajectoryPurpose", $4, $5, $6::float8, $6::float8 >= 1, $7, 1, 0) RETURNING id::text`,
    [generationId, taskId, purpose, sampleIndex, JSON.stringify(steps), reward, tools.length],
  );
  return row.id;
}

async function insertSignal(generationId: number, taskId: number, trajectoryId: string) {
  const signal = await one<{ id: number }>(
    `INSERT INTO "Signal" ("generationId", key, kind, score, "taskId", details, "trajectoryId")
     VALUES ($1, $2, 'BOUNDARY', 0.8, $3, '{"passRate": 0.5}', $4::bigint) RETURNING id`,
    [generationId, `boundary:${randomUUID()}`, taskId, trajectoryId],
  );
  return signal.id;
}

/** seed (gen 0) → child (gen 1, harder) → grandchild (gen 2, easier), plus another run. */
async function createWorld(): Promise<World> {
  const runId = await insertRun();
  const generationIds: number[] = [];
  for (const index of [0, 1, 2]) {
    const g = await one<{ id: number }>(
      `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, $2, 'DONE', 'DONE') RETURNING id`,
      [runId, index],
    );
    generationIds.push(g.id);
  }
  const [g0, g1, g2] = generationIds as [number, number, number];
  const seed = await insertTask(runId, g0, { key: "seed", instruction: "Find Ada's phone" });
  const seedTrain: string[] = [];
  for (let s = 0; s < 8; s += 1) {
    seedTrain.push(await insertTrajectory(g0, seed, "TRAIN", s, ["search", "finish"], s % 2));
  }
  await insertTrajectory(g1, seed, "EVAL", 0, ["search"], 0);
  const signal1 = await insertSignal(g0, seed, seedTrain[1]!);
  const child = await insertTask(runId, g1, {
    key: "child",
    instruction: "Find Ada's and Bob's phones",
    parent: seed,
    relation: "harder",
    signalId: signal1,
    trigger: seedTrain[1]!,
  });
  const childTrain = await insertTrajectory(g1, child, "TRAIN", 0, ["search", "search"], 0);
  const signal2 = await insertSignal(g1, child, childTrain);
  const grandchild = await insertTask(runId, g2, {
    key: "grandchild",
    instruction: "Find Bob's phone",
    parent: child,
    relation: "easier",
    signalId: signal2,
    trigger: childTrain,
  });
  const sibling = await insertTask(runId, g1, {
    key: "sibling",
    instruction: "Find Ada's email",
    parent: seed,
    relation: "variant",
  });

  const otherRunId = await insertRun();
  const og = await one<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, 0, 'DONE', 'DONE') RETURNING id`,
    [otherRunId],
  );
  const otherTask = await insertTask(otherRunId, og.id, { key: "x", instruction: "Other run" });
  const otherTrajectory = await insertTrajectory(og.id, otherTask, "TRAIN", 0, ["search"], 1);
  return {
    runId,
    otherRunId,
    generationIds,
    seed,
    child,
    grandchild,
    sibling,
    triggerOfChild: seedTrain[1]!,
    triggerOfGrandchild: childTrain,
    otherTask,
    otherTrajectory,
  };
}

let world: World;
beforeAll(async () => {
  world = await createWorld();
});

describe("getTaskDetail", () => {
  it("returns the task with its signal, trigger and spec", async () => {
    const task = await getTaskDetail({ runId: world.runId, taskId: world.child, db: pool });
    expect(task).toMatchObject({
      id: world.child,
      instruction: "Find Ada's and Bob's phones",
      bornGeneration: 1,
      origin: "SYNTHESIZED",
      relation: "harder",
      parentTaskId: world.seed,
      signal: { kind: "BOUNDARY", score: 0.8, details: { passRate: 0.5 } },
      trigger: { id: world.triggerOfChild, generationIndex: 0, purpose: "TRAIN", sampleIndex: 1 },
      spec: { world: { seed: 3 } },
    });
  });

  it("refuses another run's task, and malformed ids, with null", async () => {
    expect(
      await getTaskDetail({ runId: world.runId, taskId: world.otherTask, db: pool }),
    ).toBeNull();
    for (const taskId of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(await getTaskDetail({ runId: world.runId, taskId, db: pool })).toBeNull();
    }
  });
});

describe("getTaskLineage", () => {
  it("walks two levels up to the seed, oldest first, each with its relation and trigger", async () => {
    const lineage = await getTaskLineage({
      runId: world.runId,
      taskId: world.grandchild,
      db: pool,
    });
    expect(lineage?.isTruncated).toBe(false);
    expect(
      lineage?.chain.map((t) => [t.id, t.relation, t.trigger?.id ?? null, t.signal?.kind ?? null]),
    ).toEqual([
      [world.seed, null, null, null],
      [world.child, "harder", world.triggerOfChild, "BOUNDARY"],
      [world.grandchild, "easier", world.triggerOfGrandchild, "BOUNDARY"],
    ]);
    expect(lineage?.chain[0]!.instruction).toBe("Find Ada's phone");
  });

  it("is just the task for a seed, and null for another run's task", async () => {
    const seed = await getTaskLineage({ runId: world.runId, taskId: world.seed, db: pool });
    expect(seed?.chain.map((t) => t.id)).toEqual([world.seed]);
    expect(
      await getTaskLineage({ runId: world.otherRunId, taskId: world.child, db: pool }),
    ).toBeNull();
  });
});

describe("listTaskChildren", () => {
  it("lists the tasks derived from a task, and says when more exist than shown", async () => {
    const all = await listTaskChildren({ runId: world.runId, taskId: world.seed, db: pool });
    expect(all.children.map((c) => [c.id, c.relation])).toEqual([
      [world.child, "harder"],
      [world.sibling, "variant"],
    ]);
    expect(all.hasMore).toBe(false);
    const first = await listTaskChildren({
      runId: world.runId,
      taskId: world.seed,
      limit: 1,
      db: pool,
    });
    expect(first).toMatchObject({ hasMore: true, children: [{ id: world.child }] });
    const elsewhere = await listTaskChildren({
      runId: world.otherRunId,
      taskId: world.seed,
      db: pool,
    });
    expect(elsewhere.children).toEqual([]);
  });
});

describe("listTaskTrajectories", () => {
  async function walk(order: "asc" | "desc", limit: number) {
    const seen: string[] = [];
    let after: TaskTrajectoryCursor | null = null;
    let pages = 0;
    do {
      const page = await listTaskTrajectories({
        runId: world.runId,
        taskId: world.seed,
        order,
        after,
        limit,
        db: pool,
      });
      seen.push(...page.rows.map((r) => `${r.generationIndex}.${r.purpose}.${r.sampleIndex}`));
      // The cursor survives the URL round trip.
      after = page.next ? parseTrajectoryCursor(formatTrajectoryCursor(page.next)) : null;
      pages += 1;
    } while (after && pages < 20);
    return { seen, pages };
  }

  it("pages through every row exactly once, newest generation first", async () => {
    const { seen, pages } = await walk("desc", 3);
    expect(pages).toBe(3);
    // One row a page crosses every boundary (generation, purpose) through the cursor alone.
    expect((await walk("desc", 1)).seen).toEqual(seen);
    expect(seen).toEqual(["1.EVAL.0", ...Array.from({ length: 8 }, (_, s) => `0.TRAIN.${s}`)]);
  });

  it("pages the other way too, and filters by purpose", async () => {
    const { seen } = await walk("asc", 4);
    expect(seen).toHaveLength(9);
    expect(seen[0]).toBe("0.TRAIN.0");
    expect(seen.at(-1)).toBe("1.EVAL.0");
    const evalOnly = await listTaskTrajectories({
      runId: world.runId,
      taskId: world.seed,
      purpose: "EVAL",
      db: pool,
    });
    expect(evalOnly.rows.map((r) => r.purpose)).toEqual(["EVAL"]);
    expect(evalOnly.next).toBeNull();
  });

  it("shows nothing of a task through another run", async () => {
    const page = await listTaskTrajectories({
      runId: world.otherRunId,
      taskId: world.seed,
      db: pool,
    });
    expect(page.rows).toEqual([]);
  });

  it("reads a malformed cursor as the first page", () => {
    expect(parseTrajectoryCursor("1.TRAIN")).toBeNull();
    expect(parseTrajectoryCursor("x.TRAIN.1")).toBeNull();
    expect(parseTrajectoryCursor(undefined)).toBeNull();
  });
});

describe("trajectories", () => {
  it("reads a trajectory with its steps and task, and refuses other runs and bad ids", async () => {
    const trajectory = await getTrajectory({
      runId: world.runId,
      trajectoryId: world.triggerOfChild,
      db: pool,
    });
    expect(trajectory).toMatchObject({
      taskId: world.seed,
      taskInstruction: "Find Ada's phone",
      generationIndex: 0,
      sampleIndex: 1,
      reward: 1,
    });
    expect(trajectory?.steps.map((s) => s.tool)).toEqual(["search", "finish"]);
    expect(
      await getTrajectory({ runId: world.runId, trajectoryId: world.otherTrajectory, db: pool }),
    ).toBeNull();
    for (const bad of ["abc", "0", "-1", "1e3", "99999999999999999999", ""]) {
      expect(parseTrajectoryId(bad)).toBeNull();
      expect(await getTrajectory({ runId: world.runId, trajectoryId: bad, db: pool })).toBeNull();
    }
  });

  it("reads a task's group in one generation, in sample order", async () => {
    const group = await getGroup({
      runId: world.runId,
      generationIndex: 0,
      taskId: world.seed,
      db: pool,
    });
    expect(group?.rollouts.map((r) => r.sampleIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(group?.rollouts.map((r) => r.reward)).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    const members = await listGroupMembers({
      runId: world.runId,
      generationIndex: 0,
      taskId: world.seed,
      purpose: "TRAIN",
      db: pool,
    });
    expect(members).toHaveLength(8);
    const empty = await getGroup({
      runId: world.runId,
      generationIndex: 2,
      taskId: world.seed,
      db: pool,
    });
    expect(empty?.rollouts).toEqual([]);
    expect(
      await getGroup({ runId: world.otherRunId, generationIndex: 0, taskId: world.seed, db: pool }),
    ).toBeNull();
    expect(
      await getGroup({ runId: world.runId, generationIndex: -1, taskId: world.seed, db: pool }),
    ).toBeNull();
  });
});
