ALTER TABLE "analyses" ADD COLUMN "triage_assessed" boolean;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "called_labels" text[];--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "any_positive" boolean;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "any_uncertain" boolean;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "lead_display" text;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "lead_probability" double precision;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "lead_call" text;--> statement-breakpoint
CREATE INDEX "analyses_triage_missing_idx" ON "analyses" USING btree ("id") WHERE "analyses"."result" is not null and "analyses"."triage_assessed" is null;--> statement-breakpoint
CREATE INDEX "dicom_instances_claimed_by_idx" ON "dicom_instances" USING btree ("claimed_by");