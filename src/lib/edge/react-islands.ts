/**
 * Astro asks its renderers whether they can render a component it has not been told about, and
 * React's answer is to render it once on trial: every island was rendered twice on the server, its
 * slotted children (a listing's whole first page of cards) included. A component tagged with its
 * renderer skips the trial; React is this site's only renderer of islands.
 */
const RENDERER = Symbol.for('astro:renderer');
const REACT_RENDERER = '@astrojs/react';

/** Tells Astro that these island components are React's (idempotent; a page calls it as it renders). */
export function renderedByReact(...components: readonly object[]): void {
  for (const component of components) {
    const tagged = component as Record<symbol, string | undefined>;
    tagged[RENDERER] ??= REACT_RENDERER;
  }
}
