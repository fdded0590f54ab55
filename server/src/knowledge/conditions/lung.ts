import type { TConditionNote } from '../condition-note.js';

const TEXT_MINED = 'the training labels were text-mined from radiology reports (ChestX-ray14) and are noisy';

/** The summary score and the lung findings: atelectasis, mass, nodule, emphysema, fibrosis. */
export const LUNG_NOTES: TConditionNote[] = [
  {
    label: 'abnormal',
    name: 'Any abnormality (not normal)',
    aliases: ['abnormal', 'anything wrong', 'anything abnormal'],
    what: 'A summary score: the probability that the film is not normal for any of the findings the model was trained on.',
    signs: ['any of the patterns of the findings the model reports'],
    callMeaning:
      'A positive call means the film is unlike the films read as normal in the training data. It names no finding, and a negative call does not mean the chest is normal: ' +
      'the model does not look for everything a radiologist would (fractures, lines and tubes, many rarer conditions).',
    limits: [
      'it inherits the limits of every finding it summarises',
      'what counted as normal differs between the source datasets',
    ],
    differential: ['the findings the model assesses, and others it does not'],
    nextSteps: ['read the individual findings; review the film in full'],
    redFlags: [],
    forPatient: 'This number says how likely the model thinks it is that the image is not normal.',
  },
  {
    label: 'atelectasis',
    name: 'Atelectasis',
    aliases: ['atelectasis', 'atelectatic', 'lung collapse', 'collapse of the lung', 'volume loss'],
    what: 'Incomplete expansion of part or all of a lung, from airway obstruction, compression, or poor inspiration after surgery or in bed-bound patients.',
    signs: [
      'linear or plate-like opacities (subsegmental)',
      'displacement of fissures, hila or the diaphragm towards the affected side',
      'lobar opacity with volume loss',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described atelectasis. It does not tell the cause, or whether an obstructing lesion is present.',
    limits: ['it is often hard to separate from consolidation on a single frontal film', TEXT_MINED],
    differential: [
      'consolidation',
      'pleural effusion',
      'scarring',
      'an obstructing tumour or mucus plug (lobar collapse)',
    ],
    nextSteps: [
      'correlate with recent surgery, immobility or sedation',
      'physiotherapy and mobilisation where appropriate',
      'bronchoscopy or CT for persistent lobar collapse in an adult',
    ],
    redFlags: [
      'complete lung or lobar collapse',
      'collapse that persists in a smoker (exclude a central tumour)',
      'hypoxia',
    ],
    forPatient:
      'Part of the lung may not be fully inflated. This is common, for example after an operation, and your doctor will decide whether it needs treatment.',
  },
  {
    label: 'mass',
    name: 'Mass',
    aliases: ['mass', 'masses', 'lung mass'],
    what: 'A focal lung opacity larger than a nodule (by convention over 3 cm); lung cancer until proven otherwise in an adult with risk factors.',
    signs: [
      'a well- or ill-defined focal opacity',
      'spiculated or lobulated margins',
      'cavitation, hilar enlargement or rib destruction in some cases',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described a mass. It is an appearance, not a diagnosis of cancer, and a negative call does not exclude a tumour.',
    limits: [
      'masses behind the heart, the hila or the diaphragm are often missed on a frontal film',
      'very few training films carried this label',
      TEXT_MINED,
    ],
    differential: [
      'lung cancer',
      'metastasis',
      'round pneumonia',
      'abscess',
      'granuloma',
      'mediastinal or pleural mass',
    ],
    nextSteps: [
      'compare with previous films',
      'CT of the chest',
      'referral on a suspected-cancer pathway according to local guidelines',
    ],
    redFlags: ['haemoptysis', 'weight loss', 'a new or growing mass in a smoker', 'superior vena cava obstruction'],
    forPatient:
      'The X-ray may show an area that needs a closer look. This has many possible causes, and your doctor will likely arrange a scan.',
  },
  {
    label: 'nodule',
    name: 'Nodule',
    aliases: ['nodule', 'nodules', 'lung nodule', 'coin lesion', 'spot on the lung'],
    what: 'A rounded opacity up to about 3 cm surrounded by lung; most are benign (granulomas, scars) but some are early cancers.',
    signs: [
      'a round or oval opacity',
      'calcification (favouring benign)',
      'spiculation or growth over time (favouring malignant)',
    ],
    callMeaning:
      'A positive call means the film resembles those labelled as showing a nodule. It does not size it or tell benign from malignant; a negative call does not exclude a nodule.',
    limits: [
      'many nodules seen on CT are invisible on a radiograph, and nipple shadows, bone islands and vessels end-on can mimic one',
      'very few training films carried this label; they come partly from text-mined radiology reports and partly from a curated nodule collection (JSRT)',
    ],
    differential: [
      'granuloma',
      'hamartoma',
      'early lung cancer',
      'metastasis',
      'nipple shadow or skin lesion',
      'bone island',
    ],
    nextSteps: [
      'compare with previous films',
      'repeat with nipple markers if a nipple shadow is possible',
      'CT and management according to nodule guidelines',
    ],
    redFlags: ['growth on previous films', 'a smoker or previous cancer', 'haemoptysis or weight loss'],
    forPatient:
      'There may be a small spot on the lung. Most are harmless, but your doctor may arrange a scan to check.',
  },
  {
    label: 'emphysema',
    name: 'Emphysema',
    aliases: ['emphysema', 'hyperinflation', 'bulla', 'bullae', 'bullous'],
    what: 'Permanent enlargement of the airspaces with destruction of alveolar walls, mostly from smoking; part of COPD.',
    signs: [
      'hyperinflation with flattened hemidiaphragms',
      'increased retrosternal airspace on the lateral view',
      'reduced and pruned vascular markings',
      'bullae',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described emphysema. It does not grade it and does not replace spirometry.',
    limits: ['mild emphysema is often invisible on a radiograph; CT is far more sensitive', TEXT_MINED],
    differential: ['asthma with hyperinflation', 'a large inspiration', 'bullae versus pneumothorax'],
    nextSteps: ['spirometry', 'smoking cessation support', 'CT if it changes management (for example before surgery)'],
    redFlags: ['a large bulla mimicking or hiding a pneumothorax', 'acute breathlessness'],
    forPatient:
      'The lungs may look over-inflated, as happens with long-term lung damage such as from smoking. Breathing tests will tell more.',
  },
  {
    label: 'fibrosis',
    name: 'Fibrosis',
    aliases: ['fibrosis', 'pulmonary fibrosis', 'fibrotic', 'scarring'],
    what: 'Scarring of the lung interstitium, focal (after infection) or diffuse (interstitial lung diseases such as idiopathic pulmonary fibrosis).',
    signs: [
      'reticular opacities, often basal and peripheral',
      'volume loss',
      'honeycombing in advanced disease',
      'traction bronchiectasis',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described fibrosis. It does not name the kind of interstitial disease.',
    limits: [
      'early interstitial disease is often invisible on a radiograph; high-resolution CT is the test',
      TEXT_MINED,
    ],
    differential: [
      'chronic interstitial oedema',
      'atypical infection',
      'lymphangitic spread of tumour',
      'old post-infective scarring',
    ],
    nextSteps: ['compare with previous films', 'lung function tests', 'high-resolution CT and respiratory referral'],
    redFlags: ['rapid worsening of breathlessness', 'hypoxia'],
    forPatient:
      'The X-ray may show some scarring in the lungs. Further tests will show whether it matters and what caused it.',
  },
];
