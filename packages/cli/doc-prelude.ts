// The free names of @snowkey/cli's TSDoc examples (see CONTRIBUTING.md, "Docs are code").
export { layouts } from '@snowkey/core';
export { renderBitDiagram } from './src/bit-diagram.js';
export * from './src/index.js';
export { type LayoutFacts, layoutFacts } from './src/layout-facts.js';
