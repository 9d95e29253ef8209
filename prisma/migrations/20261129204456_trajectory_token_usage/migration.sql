-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN     "completionTokens" INTEGER,
ADD COLUMN     "promptTokens" INTEGER;

