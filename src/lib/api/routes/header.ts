/**
 * The lists of the header's two dialogs (city picker, language and currency) in the request's
 * language. Pages leave them out of their HTML, which stays within a slow phone's first round trip;
 * a dialog loads them when first opened. The same for every visitor, so cacheable.
 */
import { Hono } from 'hono';
import { HEADER_CHOICES_MAX_AGE_S } from '../../config/caching.ts';
import { HEADER } from '../../config/request.ts';
import { headerChoices } from '../../services/catalogue/header-choices.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';

const doc = describe('Location');

export const headerRoutes = new Hono<ApiEnv>().get(
  '/v1/header/choices',
  doc.anyone("The cities, languages and currencies the header's dialogs offer"),
  (c) => {
    const { reference, ctx } = c.var.scope;
    c.header('Cache-Control', `public, max-age=${HEADER_CHOICES_MAX_AGE_S}`);
    c.header('Vary', HEADER.language);
    return c.json(success(headerChoices(reference, ctx.locale)));
  },
);
