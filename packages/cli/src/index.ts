export { renderBitDiagram } from './bit-diagram.js';
export type { CliIo } from './io.js';
export { type LayoutFacts, layoutFacts } from './layout-facts.js';
export { ExitCode, run } from './run.js';
