import { C, type TCode } from './dicom-codes.js';

/** One SR content item as a naturalized dcmjs data set. */
export type TItem = Record<string, unknown>;
export type TRelationship = 'CONTAINS' | 'HAS OBS CONTEXT' | 'HAS CONCEPT MOD' | 'SELECTED FROM' | 'INFERRED FROM';

/** An image an item refers to (the source film). */
export interface TImageRef {
  ReferencedSOPClassUID: string;
  ReferencedSOPInstanceUID: string;
}

const named = (rel: TRelationship, type: string, concept: TCode) => ({
  RelationshipType: rel,
  ValueType: type,
  ConceptNameCodeSequence: [concept],
});

export const textItem = (rel: TRelationship, concept: TCode, value: string): TItem => ({
  ...named(rel, 'TEXT', concept),
  TextValue: value,
});

/** A PNAME item: a person, e.g. the observer of TID 1003; the caller keeps the name within its VR. */
export const personItem = (rel: TRelationship, concept: TCode, name: string): TItem => ({
  ...named(rel, 'PNAME', concept),
  PersonName: name,
});

export const codeItem = (rel: TRelationship, concept: TCode, value: TCode): TItem => ({
  ...named(rel, 'CODE', concept),
  ConceptCodeSequence: [value],
});

export const uidItem = (rel: TRelationship, concept: TCode, uid: string): TItem => ({
  ...named(rel, 'UIDREF', concept),
  UID: uid,
});

/** A NUM without units of measure (UCUM "1"): probabilities, thresholds and ratios. */
export const numItem = (rel: TRelationship, concept: TCode, value: number, children: TItem[] = []): TItem => ({
  ...named(rel, 'NUM', concept),
  MeasuredValueSequence: [{ NumericValue: Number(value.toFixed(4)), MeasurementUnitsCodeSequence: [C.noUnits] }],
  ...(children.length ? { ContentSequence: children } : {}),
});

/** A container; `template` adds its ContentTemplateSequence (DCMR), e.g. '1500' or '1501'. */
export const containerItem = (
  rel: TRelationship | null,
  concept: TCode,
  children: TItem[],
  template?: string,
): TItem => ({
  ...(rel ? { RelationshipType: rel } : {}),
  ValueType: 'CONTAINER',
  ConceptNameCodeSequence: [concept],
  ContinuityOfContent: 'SEPARATE',
  ...(template ? { ContentTemplateSequence: [{ MappingResource: 'DCMR', TemplateIdentifier: template }] } : {}),
  ContentSequence: children,
});

export const imageItem = (rel: TRelationship, ref: TImageRef): TItem => ({
  RelationshipType: rel,
  ValueType: 'IMAGE',
  ReferencedSOPSequence: [ref],
});

/** A two-point line on the film (column, row in pixels), selected from the film itself. */
export const lineItem = (concept: TCode, points: [number, number, number, number], film: TImageRef): TItem => ({
  ...named('CONTAINS', 'SCOORD', concept),
  GraphicType: 'POLYLINE',
  GraphicData: points.map((p) => Number(p.toFixed(2))),
  ContentSequence: [imageItem('SELECTED FROM', film)],
});
