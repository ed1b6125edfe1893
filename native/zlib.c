/*
 * zlib compression for the PDF writer: libdeflate (native/libdeflate, unchanged) built freestanding for
 * wasm32, with no libc and no imports. Built by scripts/build-deflate-wasm.sh into native/zlib.wasm, which
 * src/render/zlib.ts drives; the same wasm code on Bun, Node and workerd writes the same bytes.
 *
 * Memory: the compressors are the only allocations (from a bump allocator, never freed: one per level, kept
 * for the life of the instance). Input and output share one scratch area at the top of the heap, reused by
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
