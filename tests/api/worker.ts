/**
 * The worker the API tests run as: the Durable Object classes src/worker.ts exports. Not src/worker.ts
 * itself, whose Astro entry exists only in a build; the tests call the API app directly (helpers.ts).
 */
export { SessionInventory, WaitingRoom } from '../../src/durable-objects.ts';
