/*
 * zlib compression for the PDF writer: libdeflate (native/libdeflate, unchanged) built freestanding for
 * wasm32, with no libc and no imports. Built by scripts/build-deflate-wasm.sh into native/zlib.wasm, which
 * src/render/pdf/zlib.ts drives; the same wasm code on Bun, Node and workerd writes the same bytes.
 *
 * Also the coder of src/render/pdf/literal-deflate.ts's blocks of literals (literal_block).
 *
 * Memory: the compressors and the literal blocks' code tables are the only allocations (from a bump allocator,
 * never freed: one compressor per level and one table per code, kept for the life of the instance). Input and output share one scratch area at the top of the heap, reused by
 * every call; memory grows to fit the largest stream compressed so far and no further.
 */
#include "libdeflate/libdeflate.h"

#define WASM_PAGE 65536
#define ALIGNMENT 16

extern unsigned char __heap_base;
static unsigned long heap_top = (unsigned long)&__heap_base;

static unsigned long aligned(unsigned long address) { return (address + ALIGNMENT - 1) & ~(unsigned long)(ALIGNMENT - 1); }

/* Whether memory reaches `end`, grown if it must be; 0 when it cannot grow. */
static int reach(unsigned long end) {
  unsigned long size = __builtin_wasm_memory_size(0) * WASM_PAGE;
  if (end <= size) return 1;
  return __builtin_wasm_memory_grow(0, (end - size + WASM_PAGE - 1) / WASM_PAGE) != (unsigned long)-1;
}

static void *allocate(size_t size) {
  unsigned long start = aligned(heap_top);
  if (!reach(start + size)) return 0;
  heap_top = start + size;
  return (void *)start;
}

/* Compressors live as long as the instance: nothing is ever given back. */
static void keep(void *pointer) { (void)pointer; }

/* A compressor of `level` (0 to 12), or 0 when memory cannot grow. */
__attribute__((export_name("compressor"))) struct libdeflate_compressor *compressor(int level) {
  struct libdeflate_options options = { sizeof(options), allocate, keep };
  return libdeflate_alloc_compressor_ex(level, &options);
}

/*
 * `size` bytes above everything allocated, the same address every call until a compressor is allocated: where
 * the caller puts a stream and its compressed form. 0 when memory cannot grow.
 */
__attribute__((export_name("scratch"))) void *scratch(size_t size) {
  unsigned long start = aligned(heap_top);
  return reach(start + size) ? (void *)start : 0;
}

__attribute__((export_name("zlib_bound"))) size_t zlib_bound(struct libdeflate_compressor *compressor, size_t length) {
  return libdeflate_zlib_compress_bound(compressor, length);
}

/* The zlib stream of `length` bytes at `in`, written at `out`: its length, 0 if more than `capacity`. */
__attribute__((export_name("zlib_compress"))) size_t zlib_compress(struct libdeflate_compressor *compressor, const void *in,
                                                                   size_t length, void *out, size_t capacity) {
  return libdeflate_zlib_compress(compressor, in, length, out, capacity);
}

/* `size` bytes kept as long as the instance: the code tables of src/render/pdf/literal-deflate.ts. 0 when memory cannot grow. */
__attribute__((export_name("keep_bytes"))) void *keep_bytes(size_t size) { return allocate(size); }

/* The Adler-32 of `length` bytes at `in`. */
__attribute__((export_name("adler32"))) unsigned adler32(const void *in, size_t length) { return libdeflate_adler32(1, in, length); }

/*
 * A block of literals for src/render/pdf/literal-deflate.ts, after a header the caller wrote: the `length` bytes at
 * `in`, each as its code from `codes` (per byte value the code's bits in the low 16 and its length above, 0 for a
 * byte without a code; index 256 the end of the block), written at `out` after the `count` bits of `bits` that the
 * header left; then the end of the block, the three bits of an empty stored block's header, padding to a byte and
 * the stored block's length and its complement (a sync flush). The bytes written from `out`; 0 at a byte without
 * a code. The bits are those the JavaScript writer wrote (least significant first), in 32-bit steps.
 */
__attribute__((export_name("literal_block"))) size_t literal_block(const unsigned char *in, size_t length, const unsigned *codes,
                                                                   unsigned char *out, unsigned bits, unsigned count) {
  unsigned char *at = out;
  unsigned long long buffer = bits;
  unsigned held = count;
  for (size_t i = 0; i < length; i++) {
    unsigned code = codes[in[i]];
    if (code == 0) return 0;
    buffer |= (unsigned long long)(code & 0xffff) << held;
    held += code >> 16;
    if (held >= 32) {
      at[0] = (unsigned char)buffer;
      at[1] = (unsigned char)(buffer >> 8);
      at[2] = (unsigned char)(buffer >> 16);
      at[3] = (unsigned char)(buffer >> 24);
      at += 4;
      buffer >>= 32;
      held -= 32;
    }
  }
  buffer |= (unsigned long long)(codes[256] & 0xffff) << held;
  held += (codes[256] >> 16) + 3;
  while (held > 0) {
    *at++ = (unsigned char)buffer;
    buffer >>= 8;
    held = held > 8 ? held - 8 : 0;
  }
  at[0] = 0;
  at[1] = 0;
  at[2] = 0xff;
  at[3] = 0xff;
  return (size_t)(at + 4 - out);
}
