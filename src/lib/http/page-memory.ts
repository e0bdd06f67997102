/**
 * The isolate's own copy of the shared pages it served last (edge/shared-page-cache.ts): a hot page
 * is answered from memory instead of a Cache API lookup and a body read per request. Bounded by the
 * bytes of the bodies it holds; when full, the page used longest ago goes first.
 */
export class PageMemory<Page> {
  private readonly pages = new Map<string, { page: Page; bytes: number }>();
  private heldBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The page under the key, which becomes the most recently used. */
  get(key: string): Page | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    // A Map iterates in insertion order: re-inserting moves the key to the newest end.
    this.pages.delete(key);
    this.pages.set(key, entry);
    return entry.page;
  }

  /** Keeps the page under the key, dropping the least recently used ones to make room; a page larger than the whole budget is not kept. */
  set(key: string, page: Page, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.pages.set(key, { page, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.pages) {
      if (this.heldBytes <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.pages.get(key);
    if (!entry) return;
    this.pages.delete(key);
    this.heldBytes -= entry.bytes;
  }

  /** The bytes of the bodies held now. */
  get bytes(): number {
    return this.heldBytes;
  }
}
