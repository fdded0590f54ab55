ALTER TABLE "dicom_instances" DROP CONSTRAINT "dicom_instances_analysis_id_analyses_id_fk";
--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;