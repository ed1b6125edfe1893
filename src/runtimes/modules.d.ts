/** Wrangler bundles fonts/*.ttf as data modules (wrangler.toml [[rules]]). */
declare module '*.ttf' {
  const data: ArrayBuffer;
  export default data;
}
