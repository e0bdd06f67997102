/**
 * The Durable Object classes of wrangler.toml, which the runtime finds among the entry's exports
 * (src/worker.ts; tests/api/worker.ts for the API tests). The inventory object's batches carry the
 * services' after-write pass, handed to it here, where the worker is put together.
 */
import type { Db } from './lib/data/client.ts';
import { SessionInventoryObject } from './lib/durable-objects/session-inventory.ts';
import { afterWritePass } from './lib/services/platform/after-write.ts';

export { WaitingRoom } from './lib/durable-objects/waiting-room.ts';

export class SessionInventory extends SessionInventoryObject {
  protected override afterWritePass(db: Db, now: number, origin: string | null) {
    return afterWritePass(db, this.env.MESSAGES, now, origin);
  }
}
