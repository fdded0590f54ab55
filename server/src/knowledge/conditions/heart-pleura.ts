import type { TConditionNote } from '../condition-note.js';

const TEXT_MINED = 'the training labels were text-mined from radiology reports (ChestX-ray14) and are noisy';

/** Heart, pleura, fluid and diaphragm: cardiomegaly, oedema, pleural effusion, pneumothorax, pleural thickening, hernia. */
export const HEART_PLEURA_NOTES: TConditionNote[] = [
  {
    label: 'cardiomegaly',
    name: 'Cardiomegaly',
    aliases: ['cardiomegaly', 'enlarged heart', 'heart enlargement', 'large heart', 'big heart'],
    what: 'An enlarged cardiac silhouette on the radiograph, from chamber enlargement, hypertrophy or a pericardial effusion.',
    signs: [
      'cardiothoracic ratio above the usual upper reference on a PA film',
      'rounding or prominence of the cardiac borders',
      'signs of raised venous pressure or oedema when it goes with heart failure',
    ],
    callMeaning:
      'A positive call means the silhouette resembles those of films whose reports described cardiomegaly. ' +
      'It is not a measurement of cardiac size or function; echocardiography answers that.',
    limits: [
      'AP and supine films magnify the heart, and a poor inspiration or rotation makes it look larger',
      'a pericardial effusion and chamber enlargement look alike on a radiograph',
      'the adult reference does not apply to children, whose normal ratio is larger',
      TEXT_MINED,
    ],
    differential: [
      'projection (AP or supine film)',
      'poor inspiration',
      'pericardial effusion',
      'pectus excavatum',
      'mediastinal fat',
    ],
    nextSteps: [
      'check the projection and inspiration of the film',
      'compare with previous films',
      'echocardiography if cardiac enlargement is suspected clinically',
    ],
    redFlags: [
      'signs of heart failure (oedema, effusions)',
      'a rapidly enlarging silhouette (pericardial effusion, tamponade)',
    ],
    forPatient:
      'The heart shadow on the X-ray may look larger than usual. This can have harmless reasons; your doctor may suggest a heart scan to check.',
  },
  {
    label: 'edema',
    name: 'Pulmonary oedema',
    aliases: ['edema', 'oedema', 'pulmonary edema', 'pulmonary oedema', 'fluid on the lungs', 'fluid overload'],
    what: 'Fluid in the interstitium and alveoli of the lung, most often from raised pulmonary venous pressure (cardiogenic), otherwise from capillary leak.',
    signs: [
      'upper-lobe venous diversion',
      'Kerley B lines and peribronchial cuffing',
      'bilateral perihilar (bat-wing) airspace opacities',
      'pleural effusions',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described oedema. It does not separate cardiogenic from non-cardiogenic oedema, nor measure its severity.',
    limits: [
      'oedema, infection and haemorrhage can look alike',
      'the signs lag behind the haemodynamics, in both directions',
      TEXT_MINED,
    ],
    differential: ['pneumonia', 'ARDS', 'pulmonary haemorrhage', 'lymphangitic spread of tumour'],
    nextSteps: [
      'clinical assessment of fluid status',
      'ECG, natriuretic peptide and echocardiography as indicated',
      'repeat film to follow treatment response',
    ],
    redFlags: ['hypoxia or respiratory distress', 'acute coronary syndrome', 'rapid progression'],
    forPatient:
      'The X-ray may show some fluid in the lungs. Your doctor will look for the cause, often the heart, and treat it.',
  },
  {
    label: 'pleural_effusion',
    name: 'Pleural effusion',
    aliases: ['pleural effusion', 'effusion', 'fluid around the lung', 'pleural fluid'],
    what: 'Fluid in the pleural space (transudate, exudate, blood or pus).',
    signs: [
      'blunting of the costophrenic angle',
      'a meniscus-shaped opacity at the base',
      'loss of the hemidiaphragm outline',
      'mediastinal shift away from a large effusion',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described an effusion. It does not estimate the volume or tell the kind of fluid.',
    limits: [
      'small effusions are hidden on a frontal erect film and especially on a supine film, where fluid layers posteriorly',
      'ultrasound is more sensitive and guides any tap',
      TEXT_MINED,
    ],
    differential: [
      'pleural thickening',
      'lower-lobe consolidation or collapse',
      'raised hemidiaphragm',
      'subpulmonic effusion',
    ],
    nextSteps: [
      'ultrasound to confirm and size it',
      'look for the cause (heart failure, infection, malignancy)',
      'diagnostic tap when the cause is unclear or infection is suspected',
    ],
    redFlags: ['large effusion with breathlessness', 'fever with effusion (empyema)', 'mediastinal shift'],
    forPatient:
      'There may be some fluid between the lung and the chest wall. Your doctor may do an ultrasound to check and look for the cause.',
  },
  {
    label: 'pneumothorax',
    name: 'Pneumothorax',
    aliases: ['pneumothorax', 'collapsed lung', 'air leak'],
    what: 'Air in the pleural space, separating the lung from the chest wall.',
    signs: [
      'a visible visceral pleural line with no lung markings beyond it',
      'deep sulcus sign on a supine film',
      'mediastinal shift in tension',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described a pneumothorax. ' +
      'Such labels are known to be confounded by chest drains: a drain already in place may raise the output. A negative call does not exclude a small pneumothorax.',
    limits: [
      'small and anterior pneumothoraces are easily missed, especially on supine films',
      'skin folds and the scapular edge can mimic a pleural line',
      TEXT_MINED,
    ],
    differential: ['skin fold', 'bulla', 'scapular edge'],
    nextSteps: [
      'review the film for a pleural line at the apex',
      'clinical assessment of breathlessness and haemodynamics',
      'management according to size and symptoms and local guidelines',
    ],
    redFlags: [
      'tension pneumothorax (hypotension, tracheal deviation): treat clinically without waiting for imaging',
      'bilateral pneumothorax',
      'pneumothorax in a ventilated patient',
    ],
    forPatient:
      'There may be some air outside the lung. Your doctor will check how much and whether it needs treatment.',
  },
  {
    label: 'pleural_thickening',
    name: 'Pleural thickening',
    aliases: ['pleural thickening', 'thickened pleura', 'pleural plaque', 'pleural plaques'],
    what: 'Thickening of the pleura, focal (plaques) or diffuse, after inflammation, infection, haemothorax, asbestos exposure or, rarely, tumour.',
    signs: [
      'a soft-tissue band along the chest wall',
      'calcified plaques on the diaphragm or chest wall',
      'blunting of the costophrenic angle',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described pleural thickening. It cannot tell benign from malignant thickening.',
    limits: ['it is hard to separate from a small effusion on a single film', TEXT_MINED],
    differential: ['small pleural effusion', 'extrapleural fat', 'mesothelioma or pleural metastases'],
    nextSteps: [
      'compare with previous films',
      'ask about asbestos exposure and previous pleural disease',
      'CT when it is new, nodular or extensive',
    ],
    redFlags: ['nodular or circumferential thickening', 'chest pain with weight loss'],
    forPatient:
      'The lining around the lung may be thicker than usual, often from an old inflammation. Your doctor will decide whether it needs further checks.',
  },
  {
    label: 'hernia',
    name: 'Hernia (diaphragmatic or hiatus)',
    aliases: ['hernia', 'hiatus hernia', 'hiatal hernia', 'diaphragmatic hernia'],
    what: 'Abdominal contents, most often the stomach through the oesophageal hiatus, lying above the diaphragm.',
    signs: [
      'a retrocardiac mass or air-fluid level',
      'abnormal contour of a hemidiaphragm',
      'bowel gas above the diaphragm',
    ],
    callMeaning:
      'A positive call means the film resembles those whose reports described a hernia. The label is rare in the training data.',
    limits: [
      'a lateral view or CT is often needed to confirm it',
      'very few training films carried this label',
      TEXT_MINED,
    ],
    differential: ['mediastinal mass', 'lung abscess', 'pericardial fat pad', 'eventration of the diaphragm'],
    nextSteps: ['lateral view, contrast study or CT as indicated', 'correlate with reflux or obstructive symptoms'],
    redFlags: ['signs of obstruction or strangulation (pain, vomiting)'],
    forPatient:
      'Part of the stomach or bowel may have moved up into the chest. This is often harmless, but your doctor will check.',
  },
];
