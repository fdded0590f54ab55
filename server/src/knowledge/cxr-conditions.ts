/**
 * Curated notes for each label the classifier reports, written for clinicians (and a plainer
 * line for patients). General radiology teaching, deliberately conservative: the chat quotes
 * these next to the model's own figures and never turns them into a diagnosis.
 */
export interface TConditionNote {
  label: string;
  name: string;
  /** Other ways a clinician may ask about it (lower case). */
  aliases: string[];
  what: string;
  signs: string[];
  differential: string[];
  nextSteps: string[];
  redFlags: string[];
  forPatient: string;
}

export const CONDITION_NOTES: Record<string, TConditionNote> = {
  pneumonia: {
    label: 'pneumonia',
    name: 'Pneumonia',
    aliases: ['pneumonia', 'chest infection', 'lung infection', 'consolidation', 'lobar pneumonia', 'bronchopneumonia'],
    what: 'Infection of the lung parenchyma, bacterial or viral, in which alveoli fill with inflammatory exudate.',
    signs: [
      'lobar or segmental airspace consolidation with air bronchograms',
      'patchy or peribronchial opacities (more typical of viral or atypical infection)',
      'silhouetting of the heart border or a hemidiaphragm by adjacent consolidation',
      'parapneumonic pleural effusion in some cases',
    ],
    differential: ['atelectasis', 'pulmonary oedema', 'aspiration', 'pulmonary haemorrhage', 'organising pneumonia', 'malignancy (a non-resolving opacity)', 'tuberculosis'],
    nextSteps: [
      'correlate with symptoms, temperature, oxygen saturation and auscultation',
      'blood tests as indicated (full blood count, CRP) and sputum or viral testing',
      'consider a lateral view or ultrasound when the frontal film is equivocal',
      'follow-up radiograph after treatment in adults with risk factors, to confirm resolution',
    ],
    redFlags: ['hypoxia or rising oxygen need', 'sepsis or haemodynamic instability', 'large or loculated effusion (empyema)', 'cavitation', 'multilobar involvement'],
    forPatient: 'The picture shows areas that may be consistent with a chest infection. Your doctor will decide, with an examination and perhaps tests, whether it is pneumonia and how to treat it.',
  },
  pneumonia_bacterial: {
    label: 'pneumonia_bacterial',
    name: 'Bacterial pneumonia',
    aliases: ['bacterial pneumonia', 'bacterial infection', 'lobar consolidation'],
    what: 'Pneumonia caused by bacteria (for example Streptococcus pneumoniae), classically lobar or segmental.',
    signs: ['dense lobar or segmental consolidation', 'air bronchograms', 'possible parapneumonic effusion'],
    differential: ['viral or atypical pneumonia', 'atelectasis', 'aspiration', 'round pneumonia versus a mass in children'],
    nextSteps: ['clinical assessment and inflammatory markers', 'cultures as indicated', 'antibiotic choice according to local guidelines and clinical judgement'],
    redFlags: ['empyema', 'necrotising pneumonia or cavitation', 'sepsis'],
    forPatient: 'The pattern is one that is often seen with a bacterial chest infection, but only your doctor can confirm the cause.',
  },
  pneumonia_viral: {
    label: 'pneumonia_viral',
    name: 'Viral pneumonia',
    aliases: ['viral pneumonia', 'viral infection', 'atypical pneumonia'],
    what: 'Pneumonia caused by a virus (for example RSV, influenza), often with a bilateral interstitial or peribronchial pattern.',
    signs: ['bilateral peribronchial thickening', 'patchy or interstitial opacities', 'hyperinflation in children'],
    differential: ['bacterial pneumonia', 'asthma or bronchiolitis', 'pulmonary oedema', 'COVID-19'],
    nextSteps: ['clinical assessment', 'viral testing where it changes management', 'supportive care and watching for bacterial superinfection'],
    redFlags: ['respiratory distress', 'hypoxia', 'dehydration in young children'],
    forPatient: 'The pattern is one that can be seen with a viral chest infection; your doctor will confirm it and advise on care.',
  },
  covid19: {
    label: 'covid19',
    name: 'COVID-19 pneumonia',
    aliases: ['covid', 'covid-19', 'covid19', 'sars-cov-2', 'coronavirus'],
    what: 'Lung involvement by SARS-CoV-2 infection.',
    signs: [
      'bilateral, peripheral and lower-zone predominant ground-glass opacities',
      'patchy consolidation in more advanced disease',
      'pleural effusion is uncommon',
    ],
    differential: ['other viral pneumonias', 'organising pneumonia', 'pulmonary oedema', 'drug reaction', 'vasculitis or haemorrhage'],
    nextSteps: ['confirm with a SARS-CoV-2 test (PCR or antigen); a radiograph cannot confirm it', 'oxygen saturation and clinical severity assessment', 'follow local infection-control guidance'],
    redFlags: ['hypoxia', 'rapidly progressive bilateral opacities (ARDS)', 'suspected pulmonary embolism'],
    forPatient: 'The picture shows changes that can be seen with COVID-19 and some other infections. A swab test, not an X-ray, confirms COVID-19.',
  },
  abnormal: {
    label: 'abnormal',
    name: 'Any abnormality (not normal)',
    aliases: ['abnormal', 'anything wrong', 'anything abnormal'],
    what: 'A summary score: the probability that the film is not normal for any of the conditions the model knows (pneumonia, COVID-19).',
    signs: ['any of the patterns of the conditions above'],
    differential: ['the conditions the model assesses, and others it does not'],
    nextSteps: ['read the individual findings; review the film in full'],
    redFlags: [],
    forPatient: 'This number says how likely the model thinks it is that the image is not normal.',
  },
};

/**
 * Conditions people ask about that this model was never trained to assess. Mentioning one must
 * produce "the model does not assess it", never a probability borrowed from another label.
 */
export const NOT_ASSESSED: { name: string; aliases: string[] }[] = [
  { name: 'tuberculosis', aliases: ['tuberculosis', 'tb'] },
  { name: 'lung cancer or a nodule/mass', aliases: ['cancer', 'tumour', 'tumor', 'nodule', 'mass', 'malignancy', 'carcinoma', 'metastas'] },
  { name: 'pneumothorax', aliases: ['pneumothorax', 'collapsed lung'] },
  { name: 'pleural effusion', aliases: ['effusion', 'fluid around the lung', 'pleural fluid'] },
  { name: 'cardiomegaly or heart failure', aliases: ['cardiomegaly', 'enlarged heart', 'heart failure', 'oedema', 'edema'] },
  { name: 'rib or other fractures', aliases: ['fracture', 'broken rib'] },
  { name: 'atelectasis', aliases: ['atelectasis', 'lung collapse'] },
  { name: 'emphysema or COPD', aliases: ['emphysema', 'copd'] },
  { name: 'interstitial lung disease or fibrosis', aliases: ['fibrosis', 'interstitial', 'ild'] },
  { name: 'sarcoidosis', aliases: ['sarcoid'] },
  { name: 'lines, tubes and devices', aliases: ['pacemaker', 'line position', 'tube position', 'catheter'] },
];

/** Where the training data came from, and the bias a reader must keep in mind. */
export const TRAINING_DATA_NOTE =
  'The model was trained on public datasets in which every pneumonia image comes from young children (1-5 years, one hospital) ' +
  'and the COVID-19 images and most normal images come from adults. It has never seen adult bacterial pneumonia or pediatric COVID-19, ' +
  'so age and image source may influence its output.';

export function noteOf(label: string): TConditionNote | undefined {
  return CONDITION_NOTES[label];
}
