/** Wrangler bundles fonts/*.ttf as data modules (wrangler.toml [[rules]]). */
declare module '*.ttf' {
  const data: ArrayBuffer;
  export default data;
}

/** Wrangler compiles imported .wasm files at deploy time and hands over the WebAssembly.Module. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
