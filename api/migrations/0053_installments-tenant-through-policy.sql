ALTER TABLE "installments" DROP CONSTRAINT "installments_tenant_id_tenants_id_fk";
