import type { TConditionNote } from '../condition-note.js';

const MISSED_BEHIND_HEART =
  'opacities behind the heart or below the dome of the diaphragm are easily missed on a frontal film';
const EMPYEMA = 'large or loculated effusion (empyema)';

/**
 * Pneumonia's note; lung_opacity's, which answers "is there pneumonia?" for adults, takes its next
 * steps and red flags from it rather than keeping a second copy.
 */
const PNEUMONIA: TConditionNote = {
  label: 'pneumonia',
  name: 'Pneumonia',
  aliases: ['pneumonia', 'chest infection', 'lung infection', 'lobar pneumonia', 'bronchopneumonia'],
  // An older result (or a child's) has no airspace-opacity finding: "lung opacity?" is its pneumonia output.
  answersFor: ['lung_opacity'],
  what: 'Infection of the lung parenchyma, bacterial or viral, in which alveoli fill with inflammatory exudate.',
  signs: [
    'lobar or segmental airspace consolidation with air bronchograms',
    'patchy or peribronchial opacities (more typical of viral or atypical infection)',
    'silhouetting of the heart border or a hemidiaphragm by adjacent consolidation',
    'parapneumonic pleural effusion in some cases',
  ],
  callMeaning:
    'A positive call means the film shows an airspace opacity pattern of the kind the model learned from films labelled as pneumonia or infection. ' +
    'It does not establish an infective cause: oedema, haemorrhage, atelectasis or tumour can look the same.',
  limits: [
    'a radiograph can lag behind the clinical picture, early in the illness or in a dehydrated patient',
    MISSED_BEHIND_HEART,
    'the model sees a single frontal image, without a lateral view or a previous film to compare with',
  ],
  differential: [
    'atelectasis',
    'pulmonary oedema',
    'aspiration',
    'pulmonary haemorrhage',
    'organising pneumonia',
    'malignancy (a non-resolving opacity)',
    'tuberculosis',
  ],
  nextSteps: [
    'correlate with symptoms, temperature, oxygen saturation and auscultation',
    'blood tests as indicated (full blood count, CRP) and sputum or viral testing',
    'consider a lateral view or ultrasound when the frontal film is equivocal',
    'follow-up radiograph after treatment in adults with risk factors, to confirm resolution',
  ],
  redFlags: [
    'hypoxia or rising oxygen need',
    'sepsis or haemodynamic instability',
    EMPYEMA,
    'cavitation',
    'multilobar involvement',
  ],
  forPatient:
    'The picture shows areas that may be consistent with a chest infection. Your doctor will decide, with an examination and perhaps tests, whether it is pneumonia and how to treat it.',
};

/** Infection and airspace patterns: pneumonia (and its pediatric subtype hints), COVID-19, consolidation, infiltration. */
export const INFECTION_NOTES: TConditionNote[] = [
  PNEUMONIA,
  {
    label: 'pneumonia_bacterial',
    name: 'Bacterial pneumonia',
    aliases: ['bacterial pneumonia', 'bacterial infection', 'bacterial'],
    what: 'Pneumonia caused by bacteria (for example Streptococcus pneumoniae), classically lobar or segmental.',
    signs: ['dense lobar or segmental consolidation', 'air bronchograms', 'possible parapneumonic effusion'],
    callMeaning:
      'This output is a hint, not a microbiological result: it estimates how much the pattern resembles the pediatric films labelled bacterial in the training data, ' +
      'given a pneumonia pattern. It should never decide on its own whether to give antibiotics.',
    limits: [
      'the bacterial/viral labels of the training films came from the clinical record of young children, not from cultures of every patient',
      'bacterial and viral pneumonia overlap widely on a radiograph, and mixed infection is common',
      'in adults this split has not been validated',
    ],
    differential: [
      'viral or atypical pneumonia',
      'atelectasis',
      'aspiration',
      'round pneumonia versus a mass in children',
    ],
    nextSteps: [
      'clinical assessment and inflammatory markers',
      'cultures as indicated',
      'antibiotic choice according to local guidelines and clinical judgement',
    ],
    redFlags: ['empyema', 'necrotising pneumonia or cavitation', 'sepsis'],
    forPatient:
      'The pattern is one that is often seen with a bacterial chest infection, but only your doctor can confirm the cause.',
  },
  {
    label: 'pneumonia_viral',
    name: 'Viral pneumonia',
    aliases: ['viral pneumonia', 'viral infection', 'atypical pneumonia', 'viral'],
    what: 'Pneumonia caused by a virus (for example RSV, influenza), often with a bilateral interstitial or peribronchial pattern.',
    signs: ['bilateral peribronchial thickening', 'patchy or interstitial opacities', 'hyperinflation in children'],
    callMeaning:
      'This output is a hint, not a virological result: it estimates how much the pattern resembles the pediatric films labelled viral in the training data, ' +
      'given a pneumonia pattern. A viral test, not the film, identifies the virus.',
    limits: [
      'the bacterial/viral labels of the training films came from the clinical record of young children, not from tests of every patient',
      'bacterial and viral pneumonia overlap widely on a radiograph, and bacterial superinfection is common',
      'in adults this split has not been validated',
    ],
    differential: ['bacterial pneumonia', 'asthma or bronchiolitis', 'pulmonary oedema', 'COVID-19'],
    nextSteps: [
      'clinical assessment',
      'viral testing where it changes management',
      'supportive care and watching for bacterial superinfection',
    ],
    redFlags: ['respiratory distress', 'hypoxia', 'dehydration in young children'],
    forPatient:
      'The pattern is one that can be seen with a viral chest infection; your doctor will confirm it and advise on care.',
  },
  {
    label: 'covid19',
    name: 'COVID-19 pneumonia',
    aliases: ['covid', 'covid-19', 'covid19', 'sars-cov-2', 'coronavirus'],
    what: 'Lung involvement by SARS-CoV-2 infection.',
    signs: [
      'bilateral, peripheral and lower-zone predominant ground-glass opacities',
      'patchy consolidation in more advanced disease',
      'pleural effusion is uncommon',
    ],
    callMeaning:
      'A positive call means the pattern resembles the films labelled COVID-19 in the training data. ' +
      'It cannot confirm SARS-CoV-2 infection, and a negative call does not exclude it: many infected patients have a normal film.',
    limits: [
      'other viral pneumonias, organising pneumonia and oedema can produce the same pattern',
      'the COVID-19 training films come from public collections whose sources differ from those of the other labels, so image source may influence the output',
      'early or mild disease is often invisible on a radiograph',
    ],
    differential: [
      'other viral pneumonias',
      'organising pneumonia',
      'pulmonary oedema',
      'drug reaction',
      'vasculitis or haemorrhage',
    ],
    nextSteps: [
      'confirm with a SARS-CoV-2 test (PCR or antigen); a radiograph cannot confirm it',
      'oxygen saturation and clinical severity assessment',
      'follow local infection-control guidance',
    ],
    redFlags: ['hypoxia', 'rapidly progressive bilateral opacities (ARDS)', 'suspected pulmonary embolism'],
    forPatient:
      'The picture shows changes that can be seen with COVID-19 and some other infections. A swab test, not an X-ray, confirms COVID-19.',
  },
  {
    label: 'lung_opacity',
    name: 'Airspace opacity',
    aliases: ['lung opacity', 'airspace opacity', 'airspace disease', 'air space opacity', 'opacity', 'opacities'],
    answersFor: ['pneumonia'],
    what:
      'Lung whose airspaces are filled (by pus, fluid, blood or cells), so that it looks denser than normal: the radiographic sign of pneumonia, ' +
      'but also of oedema, haemorrhage, aspiration or tumour. For an adult the model answers "is there pneumonia?" from this finding: ' +
      'it can see the opacity; it cannot tell the cause.',
    signs: [
      'patchy or confluent opacity that hides the vessels',
      'air bronchograms',
      'silhouetting of the heart border or a hemidiaphragm',
      'little or no volume loss',
    ],
    callMeaning:
      'A flag means the film shows an airspace opacity like those of the adult films labelled consolidation, infiltration or pneumonia. ' +
      'The model cannot tell the cause: infection is common, but oedema, haemorrhage, aspiration and tumour look the same.',
    limits: [
      'the model cannot tell the cause of an opacity: whether it is pneumonia rests on the clinical picture',
      'the training labels were text-mined from radiology reports and are noisy',
      MISSED_BEHIND_HEART,
    ],
    differential: ['pneumonia', 'pulmonary oedema', 'aspiration', 'pulmonary haemorrhage', 'atelectasis', 'malignancy'],
    nextSteps: PNEUMONIA.nextSteps,
    // Pneumonia's, less the effusion: an opacity finding says nothing of the pleura.
    redFlags: PNEUMONIA.redFlags.filter((f) => f !== EMPYEMA),
    forPatient:
      'Part of the lung looks denser than normal. This is often an infection, but it can have other causes; your doctor will work out which.',
  },
  {
    label: 'consolidation',
    name: 'Consolidation',
    aliases: ['consolidation', 'consolidated'],
    what: 'Alveolar air replaced by fluid, pus, blood, cells or other material, so that the affected lung becomes opaque.',
    signs: [
      'homogeneous opacity that obscures vessels',
      'air bronchograms',
      'silhouette sign against the heart border or diaphragm',
      'little or no volume loss',
    ],
    callMeaning:
      'A positive call means the model found a pattern like the films whose reports described consolidation. ' +
      'It names an appearance, not a cause: infection is common, but oedema, haemorrhage, aspiration and tumour consolidate too.',
    limits: [
      'the training labels were text-mined from radiology reports and are noisy',
      'consolidation behind the heart or in the lower lobes can be hidden on a frontal film',
      'the distinction from atelectasis often needs a lateral view or a previous film',
    ],
    differential: [
      'pneumonia',
      'pulmonary oedema',
      'pulmonary haemorrhage',
      'aspiration',
      'atelectasis',
      'adenocarcinoma or lymphoma',
    ],
    nextSteps: [
      'correlate with symptoms and inflammatory markers',
      'lateral view or ultrasound when the frontal film is equivocal',
      'follow-up film to confirm resolution in adults with risk factors',
    ],
    redFlags: ['hypoxia', 'sepsis', 'cavitation', 'a consolidation that does not resolve'],
    forPatient:
      'Part of the lung looks denser than normal. This often goes with an infection, but your doctor will work out the cause.',
  },
  {
    label: 'infiltration',
    name: 'Infiltration',
    aliases: ['infiltration', 'infiltrate', 'infiltrates'],
    what: 'A loose report term for any ill-defined pulmonary opacity (airspace or interstitial), without naming its cause.',
    signs: [
      'ill-defined patchy or hazy opacities',
      'reticular or nodular interstitial markings',
      'may be focal or diffuse',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports used the word infiltrate. ' +
      'The term is unspecific, so the call says only that there may be an opacity worth looking at.',
    limits: [
      'the training labels were text-mined from radiology reports, where the term is used inconsistently',
      'it overlaps heavily with consolidation, pneumonia and oedema',
    ],
    differential: [
      'pneumonia',
      'pulmonary oedema',
      'atelectasis',
      'interstitial lung disease',
      'haemorrhage',
      'drug reaction',
    ],
    nextSteps: [
      'describe the opacity on the film (distribution, pattern, volume)',
      'correlate with the clinical picture',
      'compare with previous films where available',
    ],
    redFlags: ['hypoxia', 'rapid progression'],
    forPatient:
      'There may be an area of the lung that looks hazier than normal. Your doctor will decide what it means.',
  },
];
