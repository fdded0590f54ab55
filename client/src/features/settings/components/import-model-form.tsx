import { useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { HttpError } from '../../../lib/http-error';
import { importModel, type TImportModelForm } from '../lib/import-model';

/**
 * Settings → Site → Models → Import a model (issue 47): the ONNX file, its contract (a manifest
 * file only for the manifest contract), a name and a version. The worker checks the model while
 * the spinner turns; the server's words follow: a toast naming the fixture-film runs, or the
 * refusal in an alert beside the form.
 */
export function ImportModelForm({ onImported }: { onImported: () => void }) {
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [manifest, setManifest] = useState<File | null>(null);
  const [contract, setContract] = useState<TImportModelForm['contract']>('torchxrayvision');
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      toast.success(await importModel({ file, contract, name, version, manifest }));
      onImported();
    } catch (err) {
      // The server's words whatever the status: a 503 says no worker answered, and what to do.
      setRefusal(err instanceof HttpError ? err.message : errorText(err, 'The import failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="site-import" aria-labelledby="import-model-title" onSubmit={(e) => void submit(e)}>
      <h3 id="import-model-title" className="section-title">
        Import a model
      </h3>
      <div className="field">
        <label htmlFor="import-model-file" className="field-label">
          ONNX file *
        </label>
        <input
          id="import-model-file"
          type="file"
          accept=".onnx"
          required
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <div className="field">
        <label htmlFor="import-model-contract" className="field-label">
          Contract
        </label>
        <select
          id="import-model-contract"
          className="input"
          value={contract}
          onChange={(e) => setContract(e.target.value === 'manifest' ? 'manifest' : 'torchxrayvision')}
        >
          <option value="torchxrayvision">torchxrayvision (18 logits, 1 × 224 × 224)</option>
          <option value="manifest">manifest (a manifest file states input and outputs)</option>
        </select>
      </div>
      {contract === 'manifest' ? (
        <div className="field">
          <label htmlFor="import-model-manifest" className="field-label">
            Manifest (JSON) *
          </label>
          <input
            id="import-model-manifest"
            type="file"
            accept=".json,application/json"
            required
            onChange={(e) => setManifest(e.target.files?.[0] ?? null)}
          />
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="import-model-name" className="field-label">
          Name *
        </label>
        <input
          id="import-model-name"
          className="input"
          required
          pattern="[a-z0-9][a-z0-9\-]{0,47}"
          aria-describedby="import-model-name-hint"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <p id="import-model-name-hint" className="field-hint">
          Lower-case letters, digits and dashes: the model&apos;s id in the registry.
        </p>
      </div>
      <div className="field">
        <label htmlFor="import-model-version" className="field-label">
          Version
        </label>
        <input
          id="import-model-version"
          className="input"
          placeholder="1"
          value={version}
          onChange={(e) => setVersion(e.target.value)}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={busy || !file}>
        Import
      </button>
      {busy ? <Spinner label="The worker is checking the model on the fixture films…" /> : null}
      {refusal ? (
        <p className="field-error" role="alert" data-testid="import-model-refusal">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}
