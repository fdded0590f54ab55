/**
 * The one mapping from the finding names a ground-truth CSV may use to the model's finding
 * labels (docs/research.md prints it). Names match ignoring case, spaces, '_' and '-', so
 * "Pleural_Thickening", "pleural thickening" and "pleural-thickening" are one name. A model label
 * missing here still matches itself, so a future model's own names work without an edit.
 */
export const FINDING_NAMES: readonly { label: string; names: readonly string[]; implies?: readonly string[] }[] = [
  { label: 'normal', names: ['normal', 'No Finding', 'none'] },
  // A finding is present, which one is not said: counts for the triage row only.
  { label: 'abnormal', names: ['abnormal'] },
  // The 14 ChestX-ray14 names.
  { label: 'atelectasis', names: ['Atelectasis'] },
  { label: 'cardiomegaly', names: ['Cardiomegaly'] },
  { label: 'pleural_effusion', names: ['Effusion', 'Pleural Effusion'] },
  { label: 'infiltration', names: ['Infiltration', 'Infiltrate'] },
  { label: 'mass', names: ['Mass'] },
  { label: 'nodule', names: ['Nodule'] },
  { label: 'pneumonia', names: ['Pneumonia'] },
  { label: 'pneumothorax', names: ['Pneumothorax'] },
  { label: 'consolidation', names: ['Consolidation'] },
  { label: 'edema', names: ['Edema', 'Oedema'] },
  { label: 'emphysema', names: ['Emphysema'] },
  { label: 'fibrosis', names: ['Fibrosis'] },
  { label: 'pleural_thickening', names: ['Pleural_Thickening'] },
  { label: 'hernia', names: ['Hernia'] },
  // The rest of CheXpert's names.
  { label: 'enlarged_cardiomediastinum', names: ['Enlarged Cardiomediastinum'] },
  { label: 'lung_opacity', names: ['Lung Opacity'] },
  { label: 'lung_lesion', names: ['Lung Lesion'] },
  { label: 'pleural_other', names: ['Pleural Other'] },
  { label: 'fracture', names: ['Fracture'] },
  { label: 'support_devices', names: ['Support Devices'] },
  // This model's own findings beyond those.
  { label: 'covid19', names: ['COVID-19', 'covid'] },
  { label: 'pneumonia_bacterial', names: ['bacterial pneumonia'], implies: ['pneumonia'] },
  { label: 'pneumonia_viral', names: ['viral pneumonia'], implies: ['pneumonia'] },
];

/** Lower case, letters and digits only: the form names are compared in. */
export const normaliseName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const BY_NAME = new Map<string, string>();
for (const { label, names } of FINDING_NAMES)
  for (const name of [label, ...names]) BY_NAME.set(normaliseName(name), label);
const IMPLIES = new Map(FINDING_NAMES.map((f) => [f.label, f.implies ?? []]));

/** The label a ground-truth name stands for, or null when no entry knows it. */
export function labelOfName(name: string): string | null {
  return BY_NAME.get(normaliseName(name)) ?? null;
}

/** The label a model's finding is compared under: the mapping's, else the model's own. */
export function labelOfModelFinding(modelLabel: string): string {
  return labelOfName(modelLabel) ?? modelLabel;
}

export const impliedLabels = (label: string): readonly string[] => IMPLIES.get(label) ?? [];

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/** The label an unknown name is probably a typo of (at most 2 edits, 1 for short names), if any. */
export function suggestLabel(name: string): string | null {
  const n = normaliseName(name);
  const allowed = n.length <= 5 ? 1 : 2;
  let best: { label: string; distance: number } | null = null;
  for (const [known, label] of BY_NAME) {
    const distance = editDistance(n, known);
    if (distance <= allowed && (!best || distance < best.distance)) best = { label, distance };
  }
  return best?.label ?? null;
}
