import { wrapText } from '../../src/render/text/wrap.ts';

/** The texts of the lines wrapText makes, without whether each goes on after a space. */
export const wrappedTexts = (...args: Parameters<typeof wrapText>): string[] => wrapText(...args).map((line) => line.text);
