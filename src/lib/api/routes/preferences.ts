/**
 * The language and currency popup's endpoints (SPEC.md section 7). Each sets the cookie that
 * server-rendered pages read, and records the choice on the account of a signed-in user.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CURRENCY_COOKIE, LANGUAGE_COOKIE } from '../../config/request.ts';
import { saveCurrency, saveLanguage } from '../../services/accounts/preferences.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { queryId } from '../params.ts';
import { maybeSignedIn } from '../session.ts';
import { input } from '../validate.ts';
import { setPreferenceCookie } from '../visitor.ts';

const languageBody = z.object({ languageId: queryId });
const currencyBody = z.object({ currencyType: queryId });

const doc = describe('Preferences');

export const preferenceRoutes = new Hono<ApiEnv>()
  .post(
    '/v1/user/language/save',
    doc.maybe('Chooses the language (cookie, and the account when signed in)'),
    input('json', languageBody),
    maybeSignedIn,
    async (c) => {
      const language = await saveLanguage(c.var.scope, c.req.valid('json').languageId, c.var.user?.userId ?? null);
      setPreferenceCookie(c, LANGUAGE_COOKIE, language.code);
      return c.json(success(language));
    },
  )
  .post(
    '/v1/currency/save',
    doc.maybe('Chooses the currency (cookie, and the account when signed in)'),
    input('json', currencyBody),
    maybeSignedIn,
    async (c) => {
      const currency = await saveCurrency(c.var.scope, c.req.valid('json').currencyType, c.var.user?.userId ?? null);
      setPreferenceCookie(c, CURRENCY_COOKIE, currency.code);
      return c.json(success(currency));
    },
  );
