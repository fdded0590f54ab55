import { createHash } from 'node:crypto';
import { C } from './dicom-codes.js';

export const MANUFACTURER = 'Chest Doctor AI';

/** Fixed namespace for the device UIDs (a random UUID chosen once; never change it). */
const DEVICE_NAMESPACE = 'b7f3f3a2-5a57-4c1e-9d7e-6d0f3c2b9a41';

/** The model that made a result: its name and version, as the stored result records them. */
export interface TAiModel {
  modelName: string;
  modelVersion: string;
}

/**
 * The Device UID of a model version: a name-based (version 5) UUID of the name and version under
 * 2.25, so every object of one version (SR, SC, FHIR Device) names the same device without a
 * stored UID, and a new version is a new device.
 */
export function deviceUid(model: TAiModel): string {
  const ns = Buffer.from(DEVICE_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(`${model.modelName}\n${model.modelVersion}`).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return `2.25.${BigInt(`0x${bytes.toString('hex')}`).toString(10)}`;
}

/**
 * The General Equipment attributes and the Contributing Equipment Sequence item that IHE AIR asks
 * of every result object: who made it (purpose "Processing Algorithm"), which version, which device.
 */
export function aiEquipment(model: TAiModel, when: { date: string; time: string }): Record<string, unknown> {
  const identity = {
    Manufacturer: MANUFACTURER,
    ManufacturerModelName: model.modelName.slice(0, 64),
    SoftwareVersions: model.modelVersion.slice(0, 64),
  };
  return {
    ...identity,
    ContributingEquipmentSequence: [
      {
        PurposeOfReferenceCodeSequence: [C.processingAlgorithm],
        ...identity,
        // Only here: the General Equipment module of the SR and SC IODs has no Device UID (dciodvfy).
        DeviceUID: deviceUid(model),
        ContributionDateTime: `${when.date}${when.time}`,
        ContributionDescription: 'Assistive AI analysis of the chest radiograph — not a diagnosis',
      },
    ],
  };
}
