import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseModelManifest } from '@contracts/model/manifest.js';

/**
 * The findings the product knows (label → display): those the shipped model reports, names as
 * not assessed, or withdrew. An imported model's outputs map onto these and nothing else, so
 * that the report, the worklist and the site's settings speak of one set of findings.
 */
export async function productFindings(shippedDir: string): Promise<Map<string, string>> {
  const parsed = parseModelManifest(JSON.parse(await readFile(path.join(shippedDir, 'manifest.json'), 'utf8')));
  if (!parsed.ok) throw new Error(`the shipped manifest is invalid: ${parsed.error}`);
  const m = parsed.manifest;
  const out = new Map<string, string>();
  for (const f of m.findings ?? []) out.set(f.label, f.display ?? f.label);
  for (const f of m.notAssessed ?? []) out.set(f.label, f.display);
  for (const f of m.withdrawn ?? []) out.set(f.label, f.display);
  return out;
}
