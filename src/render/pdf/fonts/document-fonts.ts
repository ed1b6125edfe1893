import type { FontSet } from '../../fonts.ts';
import type { EmbeddableFace, FontFace } from '../../text/faces.ts';
import { FALLBACK_FACES } from '../../text/font-coverage.ts';
import type { FontEmbedding } from './font-embedding.ts';
import { FontUse } from './font-use.ts';

/**
 * The fonts of one document: a FontUse per face drawn. The Latin faces are F1 and F2 in every document; script faces
 * follow as F3, F4… in the order of font-coverage.ts, whatever order the text meets them in, so that the bytes depend
 * on the text alone.
 */
export class DocumentFonts {
  private readonly embedding: FontEmbedding;
  private readonly uses = new Map<EmbeddableFace, FontUse>();

  constructor(set: FontSet) {
    this.embedding = set.embedding;
    this.uses.set(set.regular.latin, this.latinUse(set.regular.latin, 'F1'));
    this.uses.set(set.bold.latin, this.latinUse(set.bold.latin, 'F2'));
  }

  private latinUse(face: FontFace, resource: string): FontUse {
    const { embedding } = this;
    return new FontUse(face, resource, false, embedding.idsOf(face), embedding.stableSubsetOf(face));
  }

  useOf(face: EmbeddableFace): FontUse {
    let use = this.uses.get(face);
    if (!use) {
      use = new FontUse(face, '', true, this.embedding.idsOf(face));
      this.uses.set(face, use);
    }
    return use;
  }

  /** Names the script faces' resources in their fixed order and closes every glyph set. */
  seal(): FontUse[] {
    const [regular, bold, ...scripts] = [...this.uses.values()];
    const order = (use: FontUse) => FALLBACK_FACES.findIndex((info) => 'info' in use.face && use.face.info === info);
    scripts.sort((a, b) => order(a) - order(b));
    scripts.forEach((use, index) => {
      use.resource = `F${index + 3}`;
    });
    const all = [regular!, bold!, ...scripts];
    for (const use of all) use.seal(this.embedding.subsets);
    return all;
  }
}
