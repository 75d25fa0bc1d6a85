ALTER TABLE "policies" DROP CONSTRAINT "policies_renewed_from_fk";
--> statement-breakpoint
DROP INDEX "policies_renewed_from_key";--> statement-breakpoint
ALTER TABLE "policies" DROP COLUMN "renewed_from_id";