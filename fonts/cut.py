"""Cuts the bundled fonts from Debian's Noto Sans (fonts/README.md says why and what is kept).

Run with Debian's python3 and python3-fonttools, with fonts-noto-core installed:
    /usr/bin/python3 fonts/cut.py
"""

from pathlib import Path

from fontTools import subset
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

SOURCE = Path('/usr/share/fonts/truetype/noto')
TARGET = Path(__file__).resolve().parent

UNICODES = (
    'U+0020-007E,U+00A0-024F,U+0250-02FF,U+0300-036F,U+0370-03FF,U+0400-052F,U+1E00-1EFF,'
    'U+1F00-1FFF,U+2000-206F,U+20A0-20CF,U+2100-214F,U+2212,U+FFFD'
)
LAYOUT_FEATURES = 'kern,mark,mkmk'


def add_minus(font: TTFont) -> None:
    """U+2212 MINUS SIGN, which this edition of Noto Sans lacks: the horizontal bar of its own plus sign, on the
    plus sign's advance (the width of a figure), which is how the typeface's later editions draw it."""
    cmap = font.getBestCmap()
    plus = font['glyf'][cmap[ord('+')]]
    points, _, _ = plus.getCoordinates(font['glyf'])
    xs = [x for x, _ in points]
    # The bar is the contour's band between the two inner y values that all four arms share.
    ys = sorted({y for _, y in points})
    bottom, top = ys[1], ys[2]
    pen = TTGlyphPen(None)
    pen.moveTo((min(xs), bottom))
    pen.lineTo((min(xs), top))
    pen.lineTo((max(xs), top))
    pen.lineTo((max(xs), bottom))
    pen.closePath()
    font['glyf']['minus'] = pen.glyph()  # also appends it to the glyph order
    font['hmtx']['minus'] = (font['hmtx'][cmap[ord('+')]][0], min(xs))
    if 'minus' not in font.getGlyphOrder():
        font.setGlyphOrder(font.getGlyphOrder() + ['minus'])
    for table in font['cmap'].tables:
        if table.isUnicode():
            table.cmap[0x2212] = 'minus'


def cut(weight: str) -> None:
    font = TTFont(SOURCE / f'NotoSans-{weight}.ttf', recalcTimestamp=False)
    add_minus(font)
    options = subset.Options()
    options.hinting = False
    options.layout_features = LAYOUT_FEATURES.split(',')
    options.glyph_names = False
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
    subsetter.subset(font)
    font.save(TARGET / f'NotoSans-{weight}.ttf')


if __name__ == '__main__':
    for weight in ('Regular', 'Bold'):
        cut(weight)
