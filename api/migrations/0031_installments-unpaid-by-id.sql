DROP INDEX "installments_tenant_unpaid_idx";--> statement-breakpoint
CREATE INDEX "installments_tenant_unpaid_idx" ON "installments" USING btree ("tenant_id","due_date","id") WHERE status <> 'paid';