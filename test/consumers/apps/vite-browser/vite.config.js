// Relative URLs and every file at the top of dist/, so any static server can serve the build.
export default { base: './', build: { assetsDir: '', sourcemap: false } };
