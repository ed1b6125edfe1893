"""Cuts the bundled fonts from Debian's Noto fonts (fonts/README.md says why and what is kept) and writes
src/render/text/font-coverage.ts, the characters each fallback face maps.

Run with Debian's python3 and python3-fonttools, with fonts-noto-core and fonts-noto-cjk installed, after npm ci:
    /usr/bin/python3 fonts/cut.py
Every output is deterministic: a second run writes the same bytes.
"""

import json
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._g_l_y_f import Glyph

SOURCE = Path('/usr/share/fonts/truetype/noto')
CJK_SOURCE = Path('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc')
# The Simplified Chinese face: Han text in no language gets its forms; `locl` for the JAN, KOR, ZHT and ZHH
# language systems (HarfBuzz language ja, ko, zh-Hant/zh-TW, zh-HK) gives the other regions' forms.
CJK_FACE_INDEX = 2
# The largest distance, in font units (1000 to the em), between a cubic curve and its quadratic replacement.
CJK_MAX_ERROR = 1.0
TARGET = Path(__file__).resolve().parent
COVERAGE = TARGET.parent / 'src' / 'render' / 'text' / 'font-coverage.ts'
# The one table of the scripts drawn beyond Latin (src/contract/scripts.ts explains its columns).
SCRIPTS = json.loads((TARGET.parent / 'src' / 'contract' / 'scripts.json').read_text())['scripts']
# Monochrome Noto Emoji (outlines), from the npm package @fontsource/noto-emoji (a development dependency): its
# `emoji` subset holds every emoji and the sequences the font draws as one glyph (skin tones, ZWJ, flags, keycaps).
EMOJI_SOURCE = TARGET.parent / 'node_modules' / '@fontsource' / 'noto-emoji' / 'files' / 'noto-emoji-emoji-400-normal.woff'

UNICODES = (
    'U+0020-007E,U+00A0-024F,U+0250-02FF,U+0300-036F,U+0370-03FF,U+0400-052F,U+1E00-1EFF,'
    'U+1F00-1FFF,U+2000-206F,U+20A0-20CF,U+2100-214F,U+2212,U+FFFD'
)
LAYOUT_FEATURES = 'kern,mark,mkmk'

# The fallback faces, in fallback priority order, are: the rest of Noto Sans (NotoSansExtra, with U+20C0 added),
# the script faces bundled first (`beforeSymbols`), the symbol families, CJK, whose own arrows, operators and shapes
# are full-width, then the script faces added later and emoji. A face added after CJK takes no character a face
# before it has, so adding one changes no earlier document's bytes.
SCRIPT_FAMILIES = tuple((row['family'], row['font']) for row in SCRIPTS if row['font'] and row['beforeSymbols'])
LATE_SCRIPT_FAMILIES = tuple((row['family'], row['font']) for row in SCRIPTS if row['font'] and not row['beforeSymbols'])
# Each symbol family keeps the characters of SYMBOL_BLOCKS that no face before it has.
SYMBOL_FAMILIES = (
    ('math', 'NotoSansMath'),
    ('symbols', 'NotoSansSymbols'),
    ('symbols2', 'NotoSansSymbols2'),
)
# General punctuation to supplemental arrows B, then miscellaneous mathematical symbols B to miscellaneous
# symbols and arrows: currency, letterlike, arrows, operators, technical, enclosed alphanumerics, box drawing,
# shapes, miscellaneous symbols and dingbats. Not Braille (U+2800-28FF), nor the supplementary planes (emoji,
# mathematical alphanumerics, pictographs).
SYMBOL_BLOCKS = ((0x2000, 0x27FF), (0x2900, 0x2BFF))


def add_glyph(font: TTFont, code_point: int, name: str, glyph: Glyph, advance: int, left_side_bearing: int) -> None:
    """Adds a drawn glyph to the font and maps the character to it in every Unicode cmap."""
    font['glyf'][name] = glyph  # also appends it to the glyph order
    font['hmtx'][name] = (advance, left_side_bearing)
    if name not in font.getGlyphOrder():
        font.setGlyphOrder(font.getGlyphOrder() + [name])
    for table in font['cmap'].tables:
        if table.isUnicode():
            table.cmap[code_point] = name


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
    add_glyph(font, 0x2212, 'minus', pen.glyph(), font['hmtx'][cmap[ord('+')]][0], min(xs))


def add_som_sign(font: TTFont) -> None:
    """U+20C0 SOM SIGN (Unicode 14), which no Noto font in Debian has. The National Bank of the Kyrgyz Republic
    defines it as the capital letter С (for "сом") over an underscore: here the font's own С, and below it a bar
    as wide as the letter, as thick as the letter E's lower arm (the weight's horizontal stroke), its top where
    the font's underscore has its top."""
    cmap = font.getBestCmap()
    glyf = font['glyf']
    letter = cmap[0x0421]  # CYRILLIC CAPITAL LETTER ES
    glyph_set = font.getGlyphSet()
    recording = DecomposingRecordingPen(glyph_set)
    glyph_set[letter].draw(recording)
    pen = TTGlyphPen(None)
    recording.replay(pen)
    bounds = glyf[letter]
    e_heights = sorted({y for _, y in glyf[cmap[ord('E')]].getCoordinates(glyf)[0]})
    thickness = e_heights[1] - e_heights[0]
    top = glyf[cmap[ord('_')]].yMax
    pen.moveTo((bounds.xMin, top - thickness))
    pen.lineTo((bounds.xMin, top))
    pen.lineTo((bounds.xMax, top))
    pen.lineTo((bounds.xMax, top - thickness))
    pen.closePath()
    glyph = pen.glyph()
    glyph.recalcBounds(glyf)
    add_glyph(font, 0x20C0, 'uni20C0', glyph, font['hmtx'][letter][0], glyph.xMin)


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


def fallback_options() -> subset.Options:
    """A fallback face keeps what HarfBuzz shapes with: every OpenType layout feature of every script and
    language system (GSUB, GPOS, GDEF intact). Hinting and glyph names go: the PDF draws outlines, unhinted."""
    options = subset.Options()
    options.hinting = False
    options.layout_features = ['*']
    options.layout_scripts = ['*']
    options.glyph_names = False
    options.notdef_outline = True
    options.drop_tables += ['MATH']  # mathematical typesetting, which the renderer does not do
    return options


def cut_fallback(font: TTFont, output: str, unicodes: list[int] | None = None) -> None:
    """Subsets `font` to `unicodes` (default: every character its cmap maps) and the glyphs layout reaches."""
    keep = sorted(font.getBestCmap()) if unicodes is None else unicodes
    subsetter = subset.Subsetter(fallback_options())
    subsetter.populate(unicodes=keep)
    subsetter.subset(font)
    font.save(TARGET / output)


def to_truetype(font: TTFont) -> TTFont:
    """Converts a CFF font to TrueType outlines: each cubic curve becomes quadratic ones within CJK_MAX_ERROR
    font units, contours reversed to TrueType's clockwise direction (as fontTools' otf2ttf snippet does).
    The vertical tables go with CFF: the renderer sets text horizontally."""
    glyph_order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable('glyf')
    glyf.glyphOrder = glyph_order
    glyf.glyphs = {}
    for name in glyph_order:
        pen = TTGlyphPen(None)
        glyph_set[name].draw(Cu2QuPen(pen, CJK_MAX_ERROR, reverse_direction=True))
        glyph = pen.glyph()
        glyph.recalcBounds(glyf)
        glyf.glyphs[name] = glyph
    for tag in ('CFF ', 'VORG', 'vhea', 'vmtx'):
        del font[tag]
    font['loca'] = newTable('loca')
    font['glyf'] = glyf
    hmtx = font['hmtx']
    for name in glyph_order:  # TrueType wants the left side bearing to equal the outline's xMin
        hmtx[name] = (hmtx[name][0], glyf[name].xMin)
    maxp = newTable('maxp')
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = len(glyph_order)
    maxp.maxZones = 1
    for field in ('maxTwilightPoints', 'maxStorage', 'maxFunctionDefs', 'maxInstructionDefs', 'maxStackElements',
                  'maxSizeOfInstructions', 'maxComponentElements'):
        setattr(maxp, field, 0)
    font['maxp'] = maxp
    font['post'].formatType = 3.0
    font.sfntVersion = '\x00\x01\x00\x00'
    return font


def in_symbol_blocks(code_point: int) -> bool:
    return any(first <= code_point <= last for first, last in SYMBOL_BLOCKS)


def ranges(code_points: list[int]) -> list[int]:
    """Sorted code points as flat [first0, last0, first1, last1, ...] runs."""
    flat: list[int] = []
    for code_point in sorted(code_points):
        if flat and flat[-1] + 1 == code_point:
            flat[-1] = code_point
        else:
            flat += [code_point, code_point]
    return flat


def typescript_array(numbers: list[int], indent: str, width: int = 140) -> list[str]:
    """The numbers filled into lines the way Biome formats an array of numbers (as many as fit the line width)."""
    lines: list[str] = []
    line = ''
    for number in numbers:
        item = f'{number},'
        if line and len(indent) + len(line) + 1 + len(item) > width:
            lines.append(indent + line)
            line = item
        else:
            line = f'{line} {item}' if line else item
    if line:
        lines.append(indent + line)
    return lines


def write_coverage(faces: list[tuple[str, str, str]]) -> None:
    """faces: (file in fonts/, family, weight) in fallback priority order."""
    out = [
        '// Written by fonts/cut.py from the cmap of each font file; do not edit by hand (run the script instead).',
        '',
        '/** A fallback font face: the characters its cmap maps, as flat sorted [first0, last0, first1, last1, ...]. */',
        'export interface FallbackFaceInfo {',
        "  /** File name in fonts/, e.g. 'NotoSansArabic-Regular.ttf'. */",
        '  readonly file: string;',
        "  /** 'arabic' | 'hebrew' | 'devanagari' | 'bengali' | 'tamil' | 'thai' | 'cjk' | 'symbols' ... */",
        '  readonly family: string;',
        '  /** A family without a bold file lists only its regular face (drawn emboldened). */',
        "  readonly weight: 'regular' | 'bold';",
        '  readonly ranges: readonly number[];',
        '}',
        '',
        '/** The fallback faces in fallback priority order; for each family its regular then its bold face. */',
        'export const FALLBACK_FACES: readonly FallbackFaceInfo[] = [',
    ]
    for file, family, weight in faces:
        code_points = TTFont(TARGET / file, lazy=True).getBestCmap().keys()
        flat = ranges(list(code_points))
        one_line = f"    ranges: [{', '.join(str(number) for number in flat)}],"
        # Biome puts an array on one line when it fits the line width, else its items as many as fit a line.
        listed = [one_line] if len(one_line) <= 140 else ['    ranges: [', *typescript_array(flat, '      '), '    ],']
        out += [
            '  {',
            f"    file: '{file}',",
            f"    family: '{family}',",
            f"    weight: '{weight}',",
            *listed,
            '  },',
        ]
    out += ['];', '']
    COVERAGE.write_text('\n'.join(out))


def main() -> None:
    for weight in ('Regular', 'Bold'):
        cut(weight)
    covered = set(TTFont(TARGET / 'NotoSans-Regular.ttf').getBestCmap())
    faces: list[tuple[str, str, str]] = []
    for weight in ('Regular', 'Bold'):
        font = TTFont(SOURCE / f'NotoSans-{weight}.ttf', recalcTimestamp=False)
        add_som_sign(font)
        rest = sorted(set(font.getBestCmap()) - covered)
        cut_fallback(font, f'NotoSansExtra-{weight}.ttf', rest)
        faces.append((f'NotoSansExtra-{weight}.ttf', 'extra', weight.lower()))
    covered |= set(rest)
    for family, stem in SCRIPT_FAMILIES:
        for weight in ('Regular', 'Bold'):
            file = f'{stem}-{weight}.ttf'
            cut_fallback(TTFont(SOURCE / file, recalcTimestamp=False), file)
            faces.append((file, family, weight.lower()))
    for family, stem in SYMBOL_FAMILIES:
        font = TTFont(SOURCE / f'{stem}-Regular.ttf', recalcTimestamp=False)
        symbols = sorted(c for c in font.getBestCmap() if in_symbol_blocks(c) and c not in covered)
        cut_fallback(font, f'{stem}-Regular.ttf', symbols)
        faces.append((f'{stem}-Regular.ttf', family, 'regular'))
        covered |= set(symbols)
    # Bold CJK (19 MB more) would double the memory a Worker isolate holds for CJK text: bold is drawn emboldened.
    cut_fallback(to_truetype(TTFont(CJK_SOURCE, fontNumber=CJK_FACE_INDEX, recalcTimestamp=False)), 'NotoSansCJK-Regular.ttf')
    faces.append(('NotoSansCJK-Regular.ttf', 'cjk', 'regular'))
    for family, stem in LATE_SCRIPT_FAMILIES:
        for weight in ('Regular', 'Bold'):
            file = f'{stem}-{weight}.ttf'
            cut_fallback(TTFont(SOURCE / file, recalcTimestamp=False), file)
            faces.append((file, family, weight.lower()))
    # Emoji are drawn in one weight (bold emboldened), as the symbols are; the vertical tables go, as CJK's do.
    emoji = TTFont(EMOJI_SOURCE, recalcTimestamp=False)
    emoji.flavor = None
    for tag in ('vhea', 'vmtx'):
        del emoji[tag]
    # HarfBuzz draws a variation selector inside a sequence (❤️) as the font's space glyph with no advance; the PDF
    # takes a glyph's width from the font, so the space is made as wide as that: nothing. The service never sets a
    # space in the emoji face (src/render/text/typeset.ts itemize).
    emoji['hmtx']['space'] = (0, 0)
    cut_fallback(emoji, 'NotoEmoji-Regular.ttf')
    faces.append(('NotoEmoji-Regular.ttf', 'emoji', 'regular'))
    write_coverage(faces)


if __name__ == '__main__':
    main()
