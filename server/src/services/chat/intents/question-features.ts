/**
 * The classifier's features for one question (shared by the trainer and the server, so the two
 * can never disagree): character 3- to 5-grams of the normalised text with word boundaries, word
 * unigrams and bigrams, hashed into a fixed number of buckets, sublinear counts, L2-normalised.
 * Character n-grams are what make a typo ("pnuemonia"), a spelling ("oedema") or an abbreviation
 * inside a word still land near the phrasings the classifier was trained on. A small clinical
 * lexicon adds one concept token per family of words ("abx", "amoxicillin", "diuretics" are all
 * TREAT), so a word the question set never used still counts for the intent its family points
 * to; the model learns how much each concept weighs.
 */

const CONCEPTS: [string, RegExp][] = [
  [
    'treat',
    /antibiot|\babx\b|amoxi|co-?amox|doxy|clarithro|steroid|oxygen|\bo2\b|diuretic|furosemide|prescri|treat|therap|antivir|\bdose\b|\bdrug|medicat|\bdrain\b|\biv\b/,
  ],
  [
    'admit',
    /admi[st]|discharg|hospital|\bhome\b|\bicu\b|\bitu\b|a ?& ?e|\ber\b|\bed\b|emergenc|communit|\bward\b|inpatient|outpatient|refer|\bbed\b|stay in/,
  ],
  [
    'image',
    /\bct\b|ctpa|hrct|\bscan|ultraso|\becho\b|lateral|repeat|re-?image|rescan|imaging|\bmri\b|cross-?sectional|follow-?up (film|x-?ray|cxr|radiograph)/,
  ],
  ['heart', /heart|\bhart\b|cardiac|\bctr\b|cardio-?thoracic|cardiomeg/],
  [
    'where',
    /\bwhere|which (lobe|side|lung|zone|part|region)|\blobe|\bside\b|\bzones?\b|\bupper\b|\blower\b|\bmiddle\b|\bbases?\b|basal|apex|apices|apical|bilateral|locali[sz]|region|\bleft\b|\bright\b|\blocat/,
  ],
  ['map', /heat ?map|overlay|highlight|colou?r|\bred\b|hot ?spot|saliency|\bcam\b|grad-?cam|contour|\bblob/],
  [
    'card',
    /accura|\bauc\b|auroc|\broc\b|sensitiv|specific|validat|evaluat|test set|held.?out|perform|false (neg|pos)|metric|model card|population|tested on|how (good|well|often)|in general|generally|this (model|ai|algorithm|tool)/,
  ],
  [
    'conf',
    /confiden|\bsure\b|probab|likel|chance|certain|percent|%|\bscore|threshold|borderline|trust|reliab|strong call/,
  ],
  [
    'compare',
    /chang|compar|previous|prior|last (time|week|film|x-?ray)|before|earlier|improv|wors|progress|resolv|interval|better|versus|differ/,
  ],
  ['ddx', /differential|differental|\bddx|\belse\b|\bother\b|mimic|alternativ|possibilit|explanation/],
  [
    'patient',
    /patient|\bpt\b|family|parent|mother|father|relative|\blay|plain|simple|jargon|non-?(medical|technical)|understand|\btell\b|\bsay\b|leaflet/,
  ],
  ['normal', /normal|\bclear\b|healthy|wrong|abnormal|unremarkable|patholog|\bok\b/],
  [
    'quality',
    /quality|rotat|expos|blur|invert|contrast|resolution|artef|artifact|position|penetrat|inspiration|adequate|\bap\b|\bpa\b|quality gate/,
  ],
  [
    'next',
    /\bnext\b|\bplan\b|manag|follow|work-?up|proceed|red flag|watch out|action|suggest|recommend|\bnow\b|investigation/,
  ],
  [
    'finding',
    /pneumon|pnuemon|covid|effusion|cardiomeg|pneumothora|\bptx\b|consolidat|oedema|edema|atelecta|nodule|\bmass\b|opacit|infiltrat|emphysema|fibrosis|hernia|infection|\bfluid\b/,
  ],
  // The reading room's questions (issue 41).
  ['why', /\bwhy\b|\breasons?\b|what made|trigger|based on|on what basis|how come|justif/],
  ['impress', /impress|impresion|conclusion|one.?liner?\b|in one line|numbered/],
  [
    'top',
    /most (important|significant|urgent|worrying|concerning|relevant|likely diagnosis)|\bmain\b|chief|principal|headline finding|\bkey\b|\btop\b|primary|leading|biggest|dominant|number one|matters most|priorit/,
  ],
  [
    'device',
    /pacemaker|pacing|defibrillat|\bicd\b|catheter|\btubes?\b|\bpicc\b|\bcvc\b|\bett?\b|\bngt?\b|nasogastric|endotracheal|trache?ostomy|\bdrains?\b|\bwires?\b|sternotomy|\bclips?\b|\bstents?\b|\bport\b|hardware|implant|\bdevices?\b|\blines?\b/,
  ],
  [
    'draft',
    /\bdraft|\bwrit(e|ing)\b|dictat|write.?up|radiology report|structured report|\bsign|formal report|full report|report (this|it)\b|\bsections?\b/,
  ],
  [
    'summary',
    /summar|overview|recap|\bresults?\b|\bfind\b|\bfound\b|verdict|report|hello|\bhi\b|help|headline|synopsis|bottom line/,
  ],
];

/** Lower case, letters, digits, '%' and '<>' kept; everything else is a space. */
export function normaliseQuestion(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9%<>]+/g, ' ')
    .trim();
}

/** FNV-1a, 32 bit. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function questionTokens(text: string): string[] {
  const norm = normaliseQuestion(text);
  const padded = ` ${norm} `;
  const out: string[] = [];
  for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) out.push(`c:${padded.slice(i, i + n)}`);
  const words = norm.split(' ').filter(Boolean);
  words.forEach((w, i) => {
    out.push(`w:${w}`);
    if (i > 0) out.push(`b:${words[i - 1]} ${w}`);
  });
  return out;
}

/** The lexicon's concepts the question touches (on the lower-cased raw text: 'a&e', 'co-amox'). */
export function questionConcepts(text: string): string[] {
  const raw = text.toLowerCase();
  return CONCEPTS.filter(([, re]) => re.test(raw)).map(([name]) => `k:${name}`);
}

/** How much one concept weighs next to the n-grams, which together have unit length. */
const CONCEPT_WEIGHT = 0.8;

/** Sparse feature vector: bucket indices and values (n-grams: sublinear counts, unit length; then the concepts). */
export function questionFeatures(text: string, buckets: number): { index: Int32Array; value: Float64Array } {
  const counts = new Map<number, number>();
  for (const t of questionTokens(text)) {
    const b = hash(t) % buckets;
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  const weights = [...counts.values()].map((c) => 1 + Math.log(c));
  const norm = Math.hypot(...weights) || 1;
  const entries = new Map<number, number>([...counts.keys()].map((b, i) => [b, weights[i]! / norm]));
  for (const k of questionConcepts(text)) {
    const b = hash(k) % buckets;
    entries.set(b, (entries.get(b) ?? 0) + CONCEPT_WEIGHT);
  }
  return { index: Int32Array.from(entries.keys()), value: Float64Array.from(entries.values()) };
}
