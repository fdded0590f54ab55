ALTER TABLE "stow_forwarding" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "stow_forwarding" ADD CONSTRAINT "stow_forwarding_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dicom_instances_study_idx" ON "dicom_instances" USING btree ("study_instance_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "stow_forwarding_team_uq" ON "stow_forwarding" USING btree ("team_id");--> statement-breakpoint
ALTER TABLE "stow_forwarding" ADD CONSTRAINT "stow_forwarding_one_space" CHECK (("stow_forwarding"."user_id" is null) <> ("stow_forwarding"."team_id" is null));