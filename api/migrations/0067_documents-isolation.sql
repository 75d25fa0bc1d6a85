-- Documents are tenant-owned (see 0001_tenant-isolation.sql), and follow the own book (0063): an
-- agent who sees only their own customers sees the documents of those customers, and of the leads
-- they see.
GRANT SELECT, INSERT, UPDATE, DELETE ON documents TO coverdesk_app;
--> statement-breakpoint
ALTER TABLE documents ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE documents FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON documents
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
CREATE POLICY own_book ON documents AS RESTRICTIVE
  USING (app_book_member() IS NULL
    OR EXISTS (SELECT 1 FROM customers c WHERE c.tenant_id = documents.tenant_id AND c.id = documents.customer_id)
    OR EXISTS (SELECT 1 FROM leads l WHERE l.tenant_id = documents.tenant_id AND l.id = documents.lead_id))
  WITH CHECK (true);
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format(
    'CREATE POLICY platform_read ON documents FOR SELECT TO %I USING (current_setting(''app.platform_read'', true) = ''on'')',
    current_user);
END
$$;
--> statement-breakpoint
-- A deleted document's bytes may be needed no more: whichever statement deleted the row (its own
-- delete, its customer's, policy's, claim's or lead's, or the agency's), the agency and hash are
-- queued, in the same transaction, for the release runner (documents/releases.ts), which deletes the
-- bytes once no document of the agency has them. The queue is the app's: the tenant role may add to
-- it, never read it (it names other agencies' files).
GRANT INSERT ON document_file_releases TO coverdesk_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE document_file_releases_id_seq TO coverdesk_app;
--> statement-breakpoint
CREATE FUNCTION queue_document_file_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO document_file_releases (tenant_id, sha256) VALUES (OLD.tenant_id, OLD.sha256);
  PERFORM pg_notify('coverdesk_document_files', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documents_queue_file_release AFTER DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION queue_document_file_release();
