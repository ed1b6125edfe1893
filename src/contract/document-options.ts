/** The choices of the top-level parameters of a document request (spec 2.1). */
export const MODES = ['final', 'preview'] as const;
export type Mode = (typeof MODES)[number];

export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];

export const LOCALES = ['en'] as const;

/** The one output format of this version; others are reserved for a later one (spec 2.2). */
export const OUTPUT_FORMAT = 'pdf';
