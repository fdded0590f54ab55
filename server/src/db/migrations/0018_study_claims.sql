CREATE TABLE "study_claims" (
	"study_id" uuid PRIMARY KEY NOT NULL,
	"instance_id" uuid,
	"analysis_id" uuid,
	"claimed_by" uuid,
	"claimed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "study_claims_one_study" CHECK (("study_claims"."instance_id" is null) <> ("study_claims"."analysis_id" is null)),
	CONSTRAINT "study_claims_study_id" CHECK ("study_claims"."study_id" = coalesce("study_claims"."instance_id", "study_claims"."analysis_id"))
);
--> statement-breakpoint
ALTER TABLE "dicom_instances" DROP CONSTRAINT "dicom_instances_claimed_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "dicom_instances" DROP CONSTRAINT "dicom_instances_reviewed_by_users_id_fk";
--> statement-breakpoint
DROP INDEX "dicom_instances_claimed_by_idx";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "revised_by" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "revised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "study_claims" ADD CONSTRAINT "study_claims_instance_id_dicom_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."dicom_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_claims" ADD CONSTRAINT "study_claims_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_claims" ADD CONSTRAINT "study_claims_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_claims" ADD CONSTRAINT "study_claims_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "study_claims_instance_uq" ON "study_claims" USING btree ("instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "study_claims_analysis_uq" ON "study_claims" USING btree ("analysis_id");--> statement-breakpoint
CREATE INDEX "study_claims_claimed_by_idx" ON "study_claims" USING btree ("claimed_by");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_revised_by_users_id_fk" FOREIGN KEY ("revised_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The claims and review marks held on network instances move to the one model; a claim on a
-- study whose report is signed is left behind (a signature ends the claim, issue 49).
INSERT INTO "study_claims" ("study_id", "instance_id", "claimed_by", "claimed_at", "reviewed_by", "reviewed_at")
SELECT d."id", d."id",
	CASE WHEN r."status" IN ('final', 'amended') THEN NULL ELSE d."claimed_by" END,
	CASE WHEN r."status" IN ('final', 'amended') THEN NULL ELSE d."claimed_at" END,
	d."reviewed_by", d."reviewed_at"
FROM "dicom_instances" d LEFT JOIN "reports" r ON r."analysis_id" = d."analysis_id"
WHERE d."claimed_by" IS NOT NULL OR d."reviewed_by" IS NOT NULL OR d."reviewed_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "dicom_instances" DROP COLUMN "claimed_by";--> statement-breakpoint
ALTER TABLE "dicom_instances" DROP COLUMN "claimed_at";--> statement-breakpoint
ALTER TABLE "dicom_instances" DROP COLUMN "reviewed_by";--> statement-breakpoint
ALTER TABLE "dicom_instances" DROP COLUMN "reviewed_at";