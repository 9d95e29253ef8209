-- CreateEnum
CREATE TYPE "ConnectionKind" AS ENUM ('OPENAI', 'HTTP_ENVIRONMENT', 'TRAINER_WEBHOOK');

-- CreateTable
CREATE TABLE "Connection" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ConnectionKind" NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT,
    "apiKeySealed" TEXT,
    "apiKeyHint" TEXT,
    "runId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Connection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Connection_name_idx" ON "Connection"("name");

-- AddForeignKey
ALTER TABLE "Connection" ADD CONSTRAINT "Connection_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

