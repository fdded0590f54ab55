import { ZManifestSummary } from '@contracts/model/manifest-summary.js';
import { createModelFileReader } from './read-model-file.js';

/**
 * MODEL_DIR/manifest.json as the server describes the model (contracts/model/manifest-summary.ts:
 * identity, findings, uncertain band), re-read only when the file changes; null when it cannot be
 * read. The worker reads the same file through the strict contract before it runs the model.
 */
export const readManifestSummary = createModelFileReader('manifest.json', ZManifestSummary);
