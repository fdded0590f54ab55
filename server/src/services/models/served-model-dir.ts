import { modelRegistryDir, type TBaseConfig } from '@contracts/config/base-config.js';
import { modelDirOf, SHIPPED_MODEL_ID } from '@contracts/model/registry.js';

/** The folder of the model an analysis was made with (null: before the registry, the shipped one). */
export function servedModelDir(
  config: Pick<TBaseConfig, 'MODEL_DIR' | 'MODEL_REGISTRY_DIR' | 'DATA_DIR'>,
  modelId: string | null,
): string {
  return modelDirOf({ shipped: config.MODEL_DIR, registry: modelRegistryDir(config) }, modelId ?? SHIPPED_MODEL_ID);
}
