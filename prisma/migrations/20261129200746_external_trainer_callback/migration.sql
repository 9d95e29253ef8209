-- CreateTable
CREATE TABLE "TrainerCallback" (
    "id" SERIAL NOT NULL,
    "generationId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "deadline" TIMESTAMP(3) NOT NULL,
    "dataPath" TEXT NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrainerCallback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TrainerCallback_tokenHash_key" ON "TrainerCallback"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "TrainerCallback_generationId_attempt_key" ON "TrainerCallback"("generationId", "attempt");

-- AddForeignKey
ALTER TABLE "TrainerCallback" ADD CONSTRAINT "TrainerCallback_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

