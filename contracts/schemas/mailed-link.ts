/**
 * Where a mailed confirmation link lands a browser (issue 41 part 6): Settings, told in words how
 * it went by `?<param>=confirmed|invalid` (an outcome, never a token or an address). One rule for
 * the site-admin link and the DICOM node owner's link.
 */
export const MAILED_LINK_PARAMS = { siteAdmin: 'site-admin', dicomOwner: 'dicom-owner' } as const;
export type TMailedLink = keyof typeof MAILED_LINK_PARAMS;
export const MAILED_LINK_OUTCOMES = ['confirmed', 'invalid'] as const;
export type TMailedLinkOutcome = (typeof MAILED_LINK_OUTCOMES)[number];
export const mailedLinkLanding = (link: TMailedLink, outcome: TMailedLinkOutcome) =>
  `/chat/settings?${MAILED_LINK_PARAMS[link]}=${outcome}`;
