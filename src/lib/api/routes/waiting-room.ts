/**
 * A high-demand on-sale's waiting room (services/on-sale/waiting-room.ts): session {id}'s, or with
 * `?tier=` that tier's own (docs/hot-on-sale.md "Per tier").
 *
 *   POST v1/waiting-rooms/{id}[?tier=]                  signed in, {turnstileToken?}: takes the buyer's place in the line, or answers it
 *                                                       (a new place needs a solved Turnstile challenge when it is configured)
 *   GET  v1/waiting-rooms/{id}/front?position=[&tier=]  where a position stands (the early group's standing without one)
 *
 * A pass to checkout is never in these answers: the order confirmation page asks the room for the
 * signed-in buyer's own (services/on-sale/waiting-room.ts passFor).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { joinWaitingRoom, waitingPosition } from '../../services/on-sale/waiting-room.ts';
import { HEADER } from '../../config/request.ts';
import type { OnSale } from '../../domain/on-sale.ts';
import { presentedChallenge } from '../../domain/turnstile.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam, queryId, turnstileToken } from '../params.ts';
import { claimsSignIn } from '../session.ts';
import { input } from '../validate.ts';

/** Which room: session {id}'s, or with `?tier=` that tier's own (also the local build's door, routes/dev.ts). */
export const roomQuery = z.object({ tier: queryId.optional() });
const joinBody = z.object({ turnstileToken });
const frontQuery = roomQuery.extend({ position: queryId.optional() });

export const onSaleOf = (sessionId: number, { tier }: { tier?: number }): OnSale => ({ sessionId, tierId: tier ?? null });

const doc = describe('Waiting room');

export const waitingRoomRoutes = new Hono<ApiEnv>()
  .post(
    '/v1/waiting-rooms/:id',
    doc.user("Takes the buyer's place in a high-demand session's (or tier's) line, or answers the place they have"),
    claimsSignIn,
    input('param', idParam),
    input('query', roomQuery),
    input('json', joinBody),
    async (c) => {
      // The line is the room object's storage: a join reads D1 (the on-sale with the sign-in's session) but never writes it.
      c.set('d1Untouched', true);
      const onSale = onSaleOf(c.req.valid('param').id, c.req.valid('query'));
      const challenge = presentedChallenge(
        c.env,
        c.req.url,
        c.req.header(HEADER.connectingAddress) ?? null,
        c.req.valid('json').turnstileToken,
      );
      return c.json(success(await joinWaitingRoom(c.var.scope, onSale, challenge)));
    },
  )
  .get(
    '/v1/waiting-rooms/:id/front',
    doc.anyone('Where a position in the line stands now, with the estimate and when to ask again'),
    input('param', idParam),
    input('query', frontQuery),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(success(await waitingPosition(c.var.scope, onSaleOf(c.req.valid('param').id, query), query.position ?? null)));
    },
  );
