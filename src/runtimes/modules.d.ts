/** Wrangler bundles fonts/*.ttf as data modules (wrangler.toml [[rules]]). */
declare module '*.ttf' {
  const data: ArrayBuffer;
  export default data;
}

/** Wrangler compiles imported .wasm files to WebAssembly modules (its default rule). */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
