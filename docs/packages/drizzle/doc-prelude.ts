// The free variables of this page's fragments: the same names, with the same types, as the
// package README's (see CONTRIBUTING.md, "Docs are code").
export * from '../../../packages/drizzle/doc-prelude.js';
