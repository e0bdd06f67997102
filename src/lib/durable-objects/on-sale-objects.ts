/**
 * The on-sale ports (data/inventory-port.ts) as the Durable Objects implement them: an on-sale's
 * inventory and waiting room are its objects, reached through the worker's bindings.
 */
import type { OnSaleObjects } from '../data/inventory-port.ts';
import { inventoryOf, type InventoryEnv } from './session-inventory.ts';
import { waitingRoom } from './waiting-room.ts';

export function durableOnSaleObjects(env: InventoryEnv & Pick<Cloudflare.Env, 'WAITING_ROOM'>): OnSaleObjects {
  return {
    inventory: (onSale) => inventoryOf(env, onSale),
    waitingRoom: (onSale) => waitingRoom(env, onSale),
  };
}
