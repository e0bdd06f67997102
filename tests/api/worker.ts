/**
 * The worker the API tests run as: the Durable Object classes src/worker.ts exports. Not src/worker.ts
 * itself, whose Astro entry exists only in a build; the tests call the API app directly (helpers.ts).
 */
export { SessionInventory } from '../../src/lib/durable-objects/session-inventory.ts';
export { WaitingRoom } from '../../src/lib/durable-objects/waiting-room.ts';
