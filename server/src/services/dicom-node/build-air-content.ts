import { currentCall, type TFindingCall } from '@contracts/finding-call.js';
import { impressionLead } from '@contracts/finding-story.js';
import { heartStory } from '@contracts/heart-story.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { projectionLine, withdrawnLines } from '../analysis/anatomy-text.js';
import { C, findingCode, type TCode } from './dicom-codes.js';
import { deviceUid, MANUFACTURER, type TAiModel } from './describe-ai-device.js';
import {
  codeItem,
  containerItem,
  imageItem,
  lineItem,
  numItem,
  textItem,
  uidItem,
  type TImageRef,
  type TItem,
} from './sr-content-items.js';
import { newUid } from './write-part10.js';

/** The call as a qualitative evaluation: read from the result (currentCall), never re-derived from the numbers. */
const CALL_CODE: Record<TFindingCall, TCode> = {
  positive: C.positive,
  possible: C.possible,
  negative: C.negative,
  uncertain: C.inconclusive,
};

/**
 * The items every TID 1500 report here starts with: language, the device as observer (TID 1002/1004),
 * the imaging procedure reported (the chest radiograph, not the algorithm) and the image library
 * with the source film (TID 1600).
 */
export function reportPreamble(model: TAiModel, film: TImageRef): TItem[] {
  return [
    codeItem('HAS CONCEPT MOD', C.language, C.english),
    codeItem('HAS OBS CONTEXT', C.observerType, C.device),
    uidItem('HAS OBS CONTEXT', C.deviceObserverUid, deviceUid(model)),
    textItem('HAS OBS CONTEXT', C.deviceObserverName, `${MANUFACTURER} ${model.modelName}`.slice(0, 64)),
    textItem('HAS OBS CONTEXT', C.deviceObserverManufacturer, MANUFACTURER),
    textItem('HAS OBS CONTEXT', C.deviceObserverModelName, model.modelName.slice(0, 64)),
    codeItem('HAS CONCEPT MOD', C.procedureReported, C.chestRadiograph),
    containerItem('CONTAINS', C.imageLibrary, [
      containerItem('CONTAINS', C.imageLibraryGroup, [imageItem('CONTAINS', film)]),
    ]),
  ];
}

/** TID 4019: which algorithm and version made a group's values. */
const algorithm = (model: TAiModel): TItem[] => [
  textItem('HAS CONCEPT MOD', C.algorithmName, model.modelName.slice(0, 1024)),
  textItem('HAS CONCEPT MOD', C.algorithmVersion, model.modelVersion.slice(0, 1024)),
];

const tracking = (id: string): TItem[] => [
  textItem('HAS OBS CONTEXT', C.trackingIdentifier, id.slice(0, 1024)),
  uidItem('HAS OBS CONTEXT', C.trackingUid, newUid()),
];

/** One TID 1501 group for a shipped finding: what, how likely, the threshold, the call, by whom, on which film. */
function findingGroup(f: TFinding, model: TAiModel, film: TImageRef): TItem {
  const finding = findingCode(f.label, f.display);
  return containerItem(
    'CONTAINS',
    C.measurementGroup,
    [
      ...tracking(f.display),
      codeItem('CONTAINS', C.finding, finding),
      ...algorithm(model),
      numItem('CONTAINS', C.probability, f.probability),
      numItem('CONTAINS', C.threshold, f.threshold),
      codeItem('CONTAINS', finding, CALL_CODE[currentCall(f)]),
      imageItem('CONTAINS', film),
    ],
    '1501',
  );
}

/** Film pixels (column, row) of a line given in fractions of the film. */
const toPixels = (line: readonly number[], size: { width: number; height: number }) =>
  [line[0]! * size.width, line[1]! * size.height, line[2]! * size.width, line[3]! * size.height] as [
    number,
    number,
    number,
    number,
  ];

/** The CTR in its own group, with the two measured widths drawn on the film when the worker gave them. */
function ctrGroup(result: TStoredResult, ctr: number, film: TImageRef): TItem {
  const lines = result.anatomy?.ctrLines;
  return containerItem(
    'CONTAINS',
    C.measurementGroup,
    [
      ...tracking('Cardiothoracic ratio'),
      ...algorithm(result),
      numItem('CONTAINS', C.ctr, ctr),
      ...(lines
        ? [
            lineItem(C.heartWidth, toPixels(lines.heart, result.image), film),
            lineItem(C.thoraxWidth, toPixels(lines.thorax, result.image), film),
          ]
        : [imageItem('CONTAINS', film)]),
    ],
    '1501',
  );
}

/**
 * The words beside the codes, the one story's (contracts/finding-story.ts, heart-story.ts): the
 * impression's flagged findings, the projection, the heart box's call and why a ratio above its
 * reference is not flagged, withdrawn outputs.
 */
function modelFourLines(result: TStoredResult): string[] {
  const { anatomy, projection } = result;
  const heart = heartStory(anatomy, projection, result.findings);
  return [
    `Impression: ${impressionLead(result.findings).replace(/\*\*/g, '')}`,
    projectionLine(projection),
    heart?.headline ? `${heart.headline}.` : null,
    heart?.reconcile ? `${heart.reconcile}.` : null,
    ...withdrawnLines(result.withdrawn),
  ].filter((l): l is string => l !== null);
}

/**
 * The content of the IHE AIR result (TID 1500 root): the preamble, then Imaging Measurements with
 * one TID 1501 group per shipped finding and one for the CTR when it was measured and trusted, and
 * model 4's notes as comments under Qualitative Evaluations.
 */
export function airReportContent(result: TStoredResult, film: TImageRef): TItem[] {
  const groups = result.findings.map((f) => findingGroup(f, result, film));
  const ctr = result.anatomy?.ctr;
  if (ctr !== null && ctr !== undefined) groups.push(ctrGroup(result, ctr, film));
  const notes = modelFourLines(result).map((l) => textItem('CONTAINS', C.comment, l.slice(0, 1024)));
  return [
    ...reportPreamble(result, film),
    containerItem('CONTAINS', C.imagingMeasurements, groups),
    ...(notes.length ? [containerItem('CONTAINS', C.qualitativeEvaluations, notes)] : []),
  ];
}

/**
 * The content of the report for a film the image check refused: why, as a qualitative evaluation,
 * and one group that only names the film and the algorithm, because viewers that read TID 1500
 * (dcmjs, OHIF) expect Imaging Measurements to hold at least one group.
 */
export function notAnalysedContent(model: TAiModel, film: TImageRef, reason: string): TItem[] {
  const group = containerItem(
    'CONTAINS',
    C.measurementGroup,
    [...tracking('Not analysed'), ...algorithm(model), imageItem('CONTAINS', film)],
    '1501',
  );
  return [
    ...reportPreamble(model, film),
    containerItem('CONTAINS', C.imagingMeasurements, [group]),
    containerItem('CONTAINS', C.qualitativeEvaluations, [
      textItem('CONTAINS', C.comment, `Not analysed: ${reason}`.slice(0, 1024)),
    ]),
  ];
}
