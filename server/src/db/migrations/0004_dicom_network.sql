CREATE TABLE "dicom_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"sop_class_uid" text,
	"study_instance_uid" text,
	"series_instance_uid" text,
	"modality" text,
	"body_part" text,
	"view_position" text,
	"tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source" text NOT NULL,
	"calling_ae" text,
	"profile_id" uuid,
	"analysis_id" uuid,
	"status" text DEFAULT 'received' NOT NULL,
	"reason" text,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dicom_patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"dicom_patient_id" text NOT NULL,
	"profile_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_profile_id_patient_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."patient_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_patients" ADD CONSTRAINT "dicom_patients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_patients" ADD CONSTRAINT "dicom_patients_profile_id_patient_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."patient_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_instances_user_sop_uq" ON "dicom_instances" USING btree ("user_id","sop_instance_uid");--> statement-breakpoint
CREATE INDEX "dicom_instances_user_created_idx" ON "dicom_instances" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "dicom_instances_analysis_idx" ON "dicom_instances" USING btree ("analysis_id");--> statement-breakpoint
CREATE INDEX "dicom_instances_status_idx" ON "dicom_instances" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_patients_user_pid_uq" ON "dicom_patients" USING btree ("user_id","dicom_patient_id");