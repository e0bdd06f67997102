/**
 * The catalogue's places and names, edited from the console (editors and operators: permission
 * 'catalogue'; anyone else 403 not_staff or staff_role_forbidden). Every change writes an audit row.
 *
 *   GET   v1/operator/venues[?cityId]     venues, a city's or all
 *   GET   v1/operator/venues/{id}
 *   POST  v1/operator/venues              names (en, zhHant, zhHans), addressEn, addressZh, cityId,
 *                                         mapUrl (https, or '' for one made from the coordinates), longitude, latitude
 *   PATCH v1/operator/venues/{id}         the same fields
 *   GET   v1/operator/artists, /{id}; POST v1/operator/artists; PATCH v1/operator/artists/{id}   names, pinyin
 *   GET   v1/operator/categories, /{id}; POST v1/operator/categories; PATCH v1/operator/categories/{id}   slug, names, pinyin, sort
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { artistList, artistRecord, createArtist, updateArtist } from '../../services/catalogue-editing/artists.ts';
import { categoryList, categoryRecord, createCategory, updateCategory } from '../../services/catalogue-editing/categories.ts';
import { createVenue, updateVenue, venueList, venueRecord } from '../../services/catalogue-editing/venues.ts';
import { artistDraft, categoryDraft, venueDraft } from '../catalogue-drafts.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { idParam, queryId } from '../params.ts';
import { signedIn } from '../session.ts';
import { staffOnly } from '../staff.ts';
import { input } from '../validate.ts';

const doc = describe('Operator: catalogue');
const editors = [signedIn, staffOnly('catalogue')] as const;

export const operatorCatalogueRoutes = new Hono<ApiEnv>()
  .get(
    '/v1/operator/venues',
    doc.user('Venues, a city’s or all (editors)'),
    ...editors,
    input('query', z.object({ cityId: queryId.optional() })),
    async (c) => c.json(success(await venueList(c.var.scope.db, c.req.valid('query').cityId ?? null))),
  )
  .get('/v1/operator/venues/:id', doc.user('One venue (editors)'), ...editors, input('param', idParam), async (c) =>
    c.json(success(await venueRecord(c.var.scope.db, c.req.valid('param').id))),
  )
  .post('/v1/operator/venues', doc.user('Creates a venue (editors)'), ...editors, input('json', venueDraft), async (c) =>
    c.json(success(await createVenue(c.var.scope, c.req.valid('json')))),
  )
  .patch(
    '/v1/operator/venues/:id',
    doc.user('Edits a venue (editors)'),
    ...editors,
    input('param', idParam),
    input('json', venueDraft),
    async (c) => c.json(success(await updateVenue(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .get('/v1/operator/artists', doc.user('Artists (editors)'), ...editors, async (c) => c.json(success(await artistList(c.var.scope.db))))
  .get('/v1/operator/artists/:id', doc.user('One artist (editors)'), ...editors, input('param', idParam), async (c) =>
    c.json(success(await artistRecord(c.var.scope.db, c.req.valid('param').id))),
  )
  .post('/v1/operator/artists', doc.user('Creates an artist (editors)'), ...editors, input('json', artistDraft), async (c) =>
    c.json(success(await createArtist(c.var.scope, c.req.valid('json')))),
  )
  .patch(
    '/v1/operator/artists/:id',
    doc.user('Edits an artist (editors)'),
    ...editors,
    input('param', idParam),
    input('json', artistDraft),
    async (c) => c.json(success(await updateArtist(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .get('/v1/operator/categories', doc.user('Categories (editors)'), ...editors, async (c) =>
    c.json(success(await categoryList(c.var.scope.db))),
  )
  .get('/v1/operator/categories/:id', doc.user('One category (editors)'), ...editors, input('param', idParam), async (c) =>
    c.json(success(await categoryRecord(c.var.scope.db, c.req.valid('param').id))),
  )
  .post('/v1/operator/categories', doc.user('Creates a category (editors)'), ...editors, input('json', categoryDraft), async (c) =>
    c.json(success(await createCategory(c.var.scope, c.req.valid('json')))),
  )
  .patch(
    '/v1/operator/categories/:id',
    doc.user('Edits a category (editors)'),
    ...editors,
    input('param', idParam),
    input('json', categoryDraft),
    async (c) => c.json(success(await updateCategory(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  );
