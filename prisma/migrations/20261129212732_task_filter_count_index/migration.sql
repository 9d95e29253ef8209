-- CreateIndex
CREATE INDEX "Task_generation_filter_count_idx" ON "Task"("generationId", "skill", "reviewStatus", "signalKind", "origin", "validationStatus", "estimatedDifficulty");

