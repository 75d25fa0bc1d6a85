-- The open pipeline (count and estimated premium of the open leads) read from the status index
-- alone: the dashboard sums it on every visit, and the heap of a large agency's leads is the slow part.
DROP INDEX "leads_tenant_status_idx";
--> statement-breakpoint
CREATE INDEX "leads_tenant_status_idx" ON "leads" USING btree ("tenant_id", "status") INCLUDE ("estimated_premium");
