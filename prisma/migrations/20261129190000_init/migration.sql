-- CreateEnum
CREATE TYPE "Role" AS ENUM ('VIEWER', 'REVIEWER', 'ADMIN');

-- CreateEnum
CREATE TYPE "RunMode" AS ENUM ('COEVOLVE', 'STATIC', 'UNIFORM');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('ACTIVE', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "GenerationStatus" AS ENUM ('QUEUED', 'RUNNING', 'AWAITING_REVIEW', 'DONE', 'FAILED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "Stage" AS ENUM ('SEED', 'ROLLOUT', 'TRAIN', 'EVALUATE', 'SIGNALS', 'SYNTHESIZE', 'VALIDATE', 'CURATE', 'NEXT_POOL', 'DONE');

-- CreateEnum
CREATE TYPE "TaskOrigin" AS ENUM ('SEED', 'SYNTHESIZED', 'IMPORTED');

-- CreateEnum
CREATE TYPE "Split" AS ENUM ('TRAIN', 'HELDOUT');

-- CreateEnum
CREATE TYPE "SignalKind" AS ENUM ('FORGETTING', 'BOUNDARY', 'RARE', 'UNIFORM');

-- CreateEnum
CREATE TYPE "ValidationStatus" AS ENUM ('PENDING', 'VALID', 'INVALID');

-- CreateEnum
CREATE TYPE "ReviewStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED');

-- CreateEnum
CREATE TYPE "TrajectoryPurpose" AS ENUM ('TRAIN', 'EVAL', 'VALIDATION');

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mode" "RunMode" NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'ACTIVE',
    "environment" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "config" JSONB NOT NULL,
    "autoRounds" INTEGER NOT NULL DEFAULT 0,
    "compareGroup" TEXT,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Generation" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "status" "GenerationStatus" NOT NULL DEFAULT 'QUEUED',
    "stage" "Stage" NOT NULL DEFAULT 'ROLLOUT',
    "progress" JSONB NOT NULL DEFAULT '{}',
    "policyVersion" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "reviewClosedAt" TIMESTAMP(3),
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "history" JSONB,
    "heldout" JSONB,
    "trainReport" JSONB,
    "trainRollouts" INTEGER NOT NULL DEFAULT 0,
    "trainEnvSteps" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Generation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PolicyCheckpoint" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "generationId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "weights" JSONB,
    "uri" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PolicyCheckpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Task" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "generationId" INTEGER NOT NULL,
    "skill" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "estimatedDifficulty" DOUBLE PRECISION NOT NULL,
    "measuredDifficulty" DOUBLE PRECISION,
    "origin" "TaskOrigin" NOT NULL,
    "split" "Split" NOT NULL DEFAULT 'TRAIN',
    "signalKind" "SignalKind",
    "signalId" INTEGER,
    "relation" TEXT,
    "measuredByPolicyVersion" INTEGER,
    "parentTaskId" INTEGER,
    "triggerTrajectoryId" BIGINT,
    "instruction" TEXT NOT NULL,
    "spec" JSONB NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "validationStatus" "ValidationStatus" NOT NULL DEFAULT 'PENDING',
    "validationReason" TEXT,
    "reviewStatus" "ReviewStatus" NOT NULL DEFAULT 'PENDING',
    "reviewer" TEXT,
    "reviewedById" INTEGER,
    "reviewedAt" TIMESTAMP(3),
    "reviewNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Trajectory" (
    "id" BIGSERIAL NOT NULL,
    "generationId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL,
    "purpose" "TrajectoryPurpose" NOT NULL,
    "sampleIndex" INTEGER NOT NULL,
    "steps" JSONB NOT NULL,
    "reward" DOUBLE PRECISION NOT NULL,
    "success" BOOLEAN NOT NULL,
    "stepCount" INTEGER NOT NULL,
    "meanEntropy" DOUBLE PRECISION NOT NULL,
    "advantage" DOUBLE PRECISION,
    "sideEffect" BOOLEAN NOT NULL DEFAULT false,
    "policyVersion" INTEGER NOT NULL,
    "answer" TEXT,
    "endReason" TEXT,
    "failure" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Trajectory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SkillStat" (
    "id" SERIAL NOT NULL,
    "generationId" INTEGER NOT NULL,
    "split" "Split" NOT NULL,
    "skill" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "successes" INTEGER NOT NULL DEFAULT 0,
    "rewardSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "envSteps" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SkillStat_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GenerationDataStat" (
    "id" SERIAL NOT NULL,
    "generationId" INTEGER NOT NULL,
    "skill" TEXT NOT NULL,
    "candidates" INTEGER NOT NULL DEFAULT 0,
    "valid" INTEGER NOT NULL DEFAULT 0,
    "invalid" INTEGER NOT NULL DEFAULT 0,
    "approved" INTEGER NOT NULL DEFAULT 0,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "pending" INTEGER NOT NULL DEFAULT 0,
    "signalForgetting" INTEGER NOT NULL DEFAULT 0,
    "signalBoundary" INTEGER NOT NULL DEFAULT 0,
    "signalRare" INTEGER NOT NULL DEFAULT 0,
    "signalUniform" INTEGER NOT NULL DEFAULT 0,
    "estimatedDifficultyQ" DOUBLE PRECISION[],
    "measuredDifficultyQ" DOUBLE PRECISION[],

    CONSTRAINT "GenerationDataStat_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Signal" (
    "id" SERIAL NOT NULL,
    "generationId" INTEGER NOT NULL,
    "taskId" INTEGER,
    "key" TEXT NOT NULL,
    "kind" "SignalKind" NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "details" JSONB NOT NULL,
    "trajectoryId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Signal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "label" TEXT,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" INTEGER,
    "runId" INTEGER,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PoolEntry" (
    "generationId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL,

    CONSTRAINT "PoolEntry_pkey" PRIMARY KEY ("generationId","position")
);

-- CreateTable
CREATE TABLE "StageBatch" (
    "id" SERIAL NOT NULL,
    "generationId" INTEGER NOT NULL,
    "stage" "Stage" NOT NULL,
    "batchIndex" INTEGER NOT NULL,
    "items" INTEGER[],
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "StageBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Run_slug_key" ON "Run"("slug");

-- CreateIndex
CREATE INDEX "Run_createdAt_id_idx" ON "Run"("createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "Run_compareGroup_idx" ON "Run"("compareGroup");

-- CreateIndex
CREATE INDEX "Generation_runId_status_idx" ON "Generation"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Generation_runId_index_key" ON "Generation"("runId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyCheckpoint_generationId_key" ON "PolicyCheckpoint"("generationId");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyCheckpoint_runId_version_key" ON "PolicyCheckpoint"("runId", "version");

-- CreateIndex
CREATE INDEX "Task_generationId_id_idx" ON "Task"("generationId", "id");

-- CreateIndex
CREATE INDEX "Task_generationId_reviewStatus_id_idx" ON "Task"("generationId", "reviewStatus", "id");

-- CreateIndex
CREATE INDEX "Task_generationId_skill_id_idx" ON "Task"("generationId", "skill", "id");

-- CreateIndex
CREATE INDEX "Task_generationId_estimatedDifficulty_id_idx" ON "Task"("generationId", "estimatedDifficulty", "id");

-- CreateIndex
CREATE INDEX "Task_runId_split_id_idx" ON "Task"("runId", "split", "id");

-- CreateIndex
CREATE INDEX "Task_parentTaskId_idx" ON "Task"("parentTaskId");

-- CreateIndex
CREATE UNIQUE INDEX "Task_runId_fingerprint_key" ON "Task"("runId", "fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "Task_runId_key_key" ON "Task"("runId", "key");

-- CreateIndex
CREATE INDEX "Trajectory_taskId_generationId_idx" ON "Trajectory"("taskId", "generationId");

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_generationId_taskId_purpose_sampleIndex_key" ON "Trajectory"("generationId", "taskId", "purpose", "sampleIndex");

-- CreateIndex
CREATE UNIQUE INDEX "SkillStat_generationId_split_skill_level_key" ON "SkillStat"("generationId", "split", "skill", "level");

-- CreateIndex
CREATE UNIQUE INDEX "GenerationDataStat_generationId_skill_key" ON "GenerationDataStat"("generationId", "skill");

-- CreateIndex
CREATE INDEX "Signal_generationId_kind_idx" ON "Signal"("generationId", "kind");

-- CreateIndex
CREATE INDEX "Signal_taskId_idx" ON "Signal"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "Signal_generationId_key_key" ON "Signal"("generationId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_tokenHash_key" ON "ShareLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ShareLink_runId_idx" ON "ShareLink"("runId");

-- CreateIndex
CREATE INDEX "AuditEvent_runId_at_idx" ON "AuditEvent"("runId", "at");

-- CreateIndex
CREATE INDEX "PoolEntry_taskId_idx" ON "PoolEntry"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "StageBatch_generationId_stage_batchIndex_key" ON "StageBatch"("generationId", "stage", "batchIndex");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PolicyCheckpoint" ADD CONSTRAINT "PolicyCheckpoint_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PolicyCheckpoint" ADD CONSTRAINT "PolicyCheckpoint_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_parentTaskId_fkey" FOREIGN KEY ("parentTaskId") REFERENCES "Task"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkillStat" ADD CONSTRAINT "SkillStat_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GenerationDataStat" ADD CONSTRAINT "GenerationDataStat_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signal" ADD CONSTRAINT "Signal_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Signal" ADD CONSTRAINT "Signal_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolEntry" ADD CONSTRAINT "PoolEntry_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolEntry" ADD CONSTRAINT "PoolEntry_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StageBatch" ADD CONSTRAINT "StageBatch_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One round at a time per run: at most one generation of a run may be queued, running or waiting
-- for its review. Prisma's schema language cannot express a partial index, so it lives only here
-- (listed in lib/db/schema-drift.test.ts as an intended difference).
CREATE UNIQUE INDEX "Generation_one_active_round_per_run" ON "Generation"("runId") WHERE "status" IN ('QUEUED', 'RUNNING', 'AWAITING_REVIEW');
