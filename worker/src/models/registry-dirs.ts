import { modelRegistryDir } from '@contracts/config/base-config.js';
import type { TJobConfig } from '../worker-deps.js';

/** Where the worker finds a model by id: the shipped one in MODEL_DIR, imported ones in the registry. */
export const registryDirs = (config: TJobConfig): { shipped: string; registry: string } => ({
  shipped: config.MODEL_DIR,
  registry: modelRegistryDir(config),
});
