import { NETWORK_ERROR } from '../../../lib/error-text';
import { HttpError } from '../../../lib/http-error';

export interface TImportModelForm {
  file: File;
  contract: 'torchxrayvision' | 'manifest';
  name: string;
  version: string;
  manifest: File | null;
}

/**
 * POST /api/site/models (issue 47) as multipart: tRPC cannot carry a file. The worker checks the
 * model before the server answers (tens of seconds for a large one). Resolves with the server's
 * message (the fixture-film runs); a refusal throws HttpError with the server's words.
 */
export async function importModel(form: TImportModelForm): Promise<string> {
  const body = new FormData();
  body.append('contract', form.contract);
  body.append('name', form.name.trim());
  if (form.version.trim()) body.append('version', form.version.trim());
  if (form.contract === 'manifest' && form.manifest) body.append('manifest', form.manifest, form.manifest.name);
  // The model goes last: the server has the fields before it streams the file.
  body.append('file', form.file, form.file.name);
  let res: Response;
  try {
    res = await fetch('/api/site/models', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new HttpError(NETWORK_ERROR, 0);
  }
  const json = (await res.json().catch(() => null)) as { success?: boolean; message?: string } | null;
  if (!res.ok || !json?.success) throw new HttpError(json?.message || `The import failed (${res.status})`, res.status);
  return json.message ?? 'Imported';
}
