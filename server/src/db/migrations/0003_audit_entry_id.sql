ALTER TABLE "audit_log" ADD COLUMN "entry_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_entry_id_idx" ON "audit_log" USING btree ("entry_id");