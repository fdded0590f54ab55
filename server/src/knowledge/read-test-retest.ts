import { ZTestRetest } from '@contracts/model/test-retest.js';
import { createModelFileReader } from './read-model-file.js';

/**
 * MODEL_DIR/test-retest.json (scripts/measure-test-retest.ts): each finding's measured
 * test-retest spread, re-read only when the file changes; null when there is none.
 */
export const readTestRetest = createModelFileReader('test-retest.json', ZTestRetest);
