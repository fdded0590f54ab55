ALTER TABLE "analyses" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dicom_instances" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dicom_patients" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "finding_feedback" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_profiles" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stored_images" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "team_id" uuid;--> statement-breakpoint
CREATE INDEX "audit_log_team_idx" ON "audit_log" USING btree ("team_id","id");--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_author_or_team" CHECK (user_id is not null or team_id is not null);--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_author_or_team" CHECK (user_id is not null or team_id is not null);--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_author_or_team" CHECK (user_id is not null or team_id is not null);--> statement-breakpoint
ALTER TABLE "dicom_patients" ADD CONSTRAINT "dicom_patients_author_or_team" CHECK (user_id is not null or team_id is not null);--> statement-breakpoint
ALTER TABLE "finding_feedback" ADD CONSTRAINT "finding_feedback_author_or_team" CHECK (user_id is not null or team_id is not null);--> statement-breakpoint
ALTER TABLE "patient_profiles" ADD CONSTRAINT "patient_profiles_author_or_team" CHECK (user_id is not null or team_id is not null);--> statement-breakpoint
ALTER TABLE "stored_images" ADD CONSTRAINT "stored_images_author_or_team" CHECK (user_id is not null or team_id is not null);