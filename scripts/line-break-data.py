#!/usr/bin/env python3
"""Generates the line-breaking data of src/render/text/line-breaks.ts (deterministic output).

  python3 scripts/line-break-data.py LineBreak.txt thaidict.dict [LineBreakTest.txt]

- LineBreak.txt: Unicode's line break classes (Debian's unicode-data: /usr/share/unicode/LineBreak.txt, 15.0.0).
  Written to src/render/text/line-break-classes.ts: the classes other than AL of the blocks that sit next to CJK text
  (Latin-1, punctuation, currency, CJK, Hangul Jamo, compatibility and fullwidth forms). Hangul syllables are
  computed (H2/H3) and combining marks are found by General_Category, so neither is listed.
- thaidict.dict: ICU's Thai dictionary as ICU builds it from thaidict.txt (brkitr/thaidict.dict in ICU 72.1's
  icudt72l.dat, Debian's source package icu; `icupkg -x brkitr/thaidict.dict icudt72l.dat`). Its BytesTrie is
  read here word by word, and the words are written to src/render/text/thai-words.ts sorted by code point, each
  between spaces, so that line-breaks.ts finds words by bisection in the string itself with nothing to build.
  Each Thai character U+0E01 + i is written as THAI_ALPHABET[i], printable ASCII: one byte in the bundle where
  a bundler would write six (a \\u0E01 escape), and no escape in the literal.
- LineBreakTest.txt (Debian's unicode-data: /usr/share/unicode/auxiliary/): its cases that line-breaks.ts answers
  in full are copied to test/render/line-break-test-cjk.txt (see TEST_HEADER).
Then `npx biome format --write src/render/text/line-break-classes.ts src/render/text/thai-words.ts` (the files are committed
as Biome formats them).
"""
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = ROOT / 'src' / 'render' / 'text'

# The classes line-breaks.ts tells apart; every other class is AL there (HL, AI, XX, SA, CB, RI ...).
CLASSES = ['OP', 'CL', 'CP', 'EX', 'IS', 'NS', 'CJ', 'ID', 'JL', 'JV', 'JT', 'QU', 'PR', 'PO', 'NU', 'SY', 'BA', 'BB',
           'B2', 'HY', 'IN', 'GL', 'WJ', 'ZW', 'CM', 'ZWJ', 'EB', 'EM']
BLOCKS = [(0x0000, 0x00FF), (0x1100, 0x11FF), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2E80, 0xA4CF), (0xA960, 0xA97F), (0xD7B0, 0xD7FF),
          (0xF900, 0xFAFF), (0xFE10, 0xFE6F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF)]


def line_break_classes(path):
    classes = {}
    for line in open(path, encoding='utf-8'):
        line = line.split('#')[0].strip()
        if not line:
            continue
        span, name = (part.strip() for part in line.split(';'))
        first, last = (span.split('..') + [span])[:2]
        for code_point in range(int(first, 16), int(last, 16) + 1):
            classes[code_point] = name
    ranges = []
    for first, last in BLOCKS:
        for code_point in range(first, last + 1):
            name = classes.get(code_point, 'ID' if code_point >= 0x20000 else 'AL')
            if name not in CLASSES:
                continue
            if ranges and ranges[-1][2] == name and ranges[-1][1] == code_point - 1:
                ranges[-1][1] = code_point
            else:
                ranges.append([code_point, code_point, name])
    return ranges


def thai_words(path):
    data = Path(path).read_bytes()
    header_size = struct.unpack_from('<H', data, 0)[0]
    indexes = struct.unpack_from('<8i', data, header_size)
    trie = data[header_size + indexes[0]:header_size + indexes[3]]
    offset = indexes[5] & 0x1FFFFF

    def value_length(lead):
        return 0 if lead < 0x51 else 1 if lead < 0x6C else 2 if lead < 0x7E else 3 if lead == 0x7E else 4

    def read_value(pos, lead):
        if lead < 0x51:
            return lead - 0x10
        if lead < 0x6C:
            return ((lead - 0x51) << 8) | trie[pos]
        if lead < 0x7E:
            return ((lead - 0x6C) << 16) | (trie[pos] << 8) | trie[pos + 1]
        return int.from_bytes(trie[pos:pos + value_length(lead)], 'big')

    def read_delta(pos):
        delta = trie[pos]
        pos += 1
        if delta >= 0xC0:
            if delta < 0xF0:
                delta, pos = ((delta - 0xC0) << 8) | trie[pos], pos + 1
            elif delta < 0xFE:
                delta, pos = ((delta - 0xF0) << 16) | (trie[pos] << 8) | trie[pos + 1], pos + 2
            else:
                extra = 3 if delta == 0xFE else 4
                delta, pos = int.from_bytes(trie[pos:pos + extra], 'big'), pos + extra
        return pos, delta

    words = []

    def node(prefix, pos):
        while True:
            lead = trie[pos]
            pos += 1
            if lead >= 0x20:  # a value: a word ends here
                words.append(prefix)
                pos += value_length(lead >> 1)
                if lead & 1:
                    return
            elif lead >= 0x10:  # a linear match
                length = lead - 0x10 + 1
                prefix, pos = prefix + trie[pos:pos + length], pos + length
            else:
                length = lead
                if length == 0:
                    length, pos = trie[pos], pos + 1
                branch(prefix, pos, length + 1)
                return

    def branch(prefix, pos, length):
        while length > 5:
            after, delta = read_delta(pos + 1)
            branch(prefix, after + delta, length >> 1)
            pos, length = after, length - (length >> 1)
        for _ in range(length - 1):
            key, lead = trie[pos], trie[pos + 1]
            value = read_value(pos + 2, lead >> 1)
            pos += 2 + value_length(lead >> 1)
            if lead & 1:
                words.append(prefix + bytes([key]))
            else:
                node(prefix + bytes([key]), pos + value)
        node(prefix + bytes([trie[pos]]), pos + 1)

    node(b'', 0)
    return sorted({''.join(chr(offset + byte) for byte in word) for word in words})


# Printable ASCII but the space (the separator) and what a JavaScript string literal would escape or Biome requote.
THAI_ALPHABET = ''.join(chr(code) for code in range(0x21, 0x7F) if chr(code) not in '\\\'"`')

TEST_HEADER = """# The cases of Unicode's LineBreakTest-15.0.0.txt that src/render/text/line-breaks.ts answers in full: those with an
# ideograph or Hangul (ID, H2, H3, JL, JV, JT) and no SP, BK, CR, LF, NL, QU (LB19 is read as before 15.1), CB,
# RI, EB, EM or HL, copied by scripts/line-break-data.py. The test resolves CJ as NS, SA, AI and XX as AL, as
# line-breaks.ts does; test/render/line-breaks.test.ts checks every place next to an East Asian character.
# LineBreakTest.txt: (c) 2022 Unicode, Inc.; terms of use: https://www.unicode.org/terms_of_use.html
"""
LEFT_OUT = {'SP', 'BK', 'CR', 'LF', 'NL', 'QU', 'CB', 'RI', 'EB', 'EM', 'HL'}
EAST_ASIAN = {'ID', 'H2', 'H3', 'JL', 'JV', 'JT'}


def line_break_test_cases(path):
    import re
    cases = []
    for line in open(path, encoding='utf-8'):
        if line.startswith('#') or '#' not in line:
            continue
        classes = set(re.findall(r'\((\w+)\)', line.split('#', 1)[1]))
        if classes & EAST_ASIAN and not classes & LEFT_OUT:
            cases.append(line.rstrip('\n'))
    return cases


def main():
    line_break, thai_dict = sys.argv[1:3]
    if len(sys.argv) > 3:
        cases = line_break_test_cases(sys.argv[3])
        (ROOT / 'test' / 'render' / 'line-break-test-cjk.txt').write_text(
            TEST_HEADER + '\n'.join(cases) + '\n', encoding='utf-8')
    ranges = line_break_classes(line_break)
    flat = ',\n'.join(f'  0x{first:x}, 0x{last:x}, {CLASSES.index(name)}' for first, last, name in ranges)
    (TEXT / 'line-break-classes.ts').write_text(
        '// GENERATED by scripts/line-break-data.py from Unicode 15.0.0 LineBreak.txt: do not edit.\n\n'
        f'/** The line break classes, in the order of the numbers in LINE_BREAK_RANGES. */\n'
        f'export const LINE_BREAK_CLASSES = {CLASSES!r} as const;\n\n'
        + '/** Flat, sorted [first, last, class index, ...]: the classes other than AL in the blocks next to CJK text. */\n'
        f'export const LINE_BREAK_RANGES: readonly number[] = [\n{flat},\n];\n', encoding='utf-8')
    words = thai_words(thai_dict)
    assert all(0x0E01 <= ord(char) < 0x0E01 + len(THAI_ALPHABET) for word in words for char in word)
    encoded = ' '.join(''.join(THAI_ALPHABET[ord(char) - 0x0E01] for char in word) for word in words)
    (TEXT / 'thai-words.ts').write_text(
        '// GENERATED by scripts/line-break-data.py from ICU 72.1 thaidict (Unicode licence: thai-words.LICENSE.txt).\n\n'
        '/** THAI_WORDS writes the Thai character U+0E01 + i as THAI_ALPHABET[i]. */\n'
        f"export const THAI_ALPHABET = '{THAI_ALPHABET}';\n\n"
        f'/** {len(words)} Thai words sorted by code point, each between spaces, written in THAI_ALPHABET. */\n'
        f"export const THAI_WORDS = ' {encoded} ';\n", encoding='utf-8')
    print(f'{len(ranges)} class ranges, {len(words)} Thai words')


main()
