/**
 * The language and currency popup's endpoints (SPEC.md section 7). Each sets the cookie that
 * server-rendered pages read, and records the choice on the account of a signed-in user.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CURRENCY_COOKIE, LANGUAGE_COOKIE } from '../../config.ts';
import { saveCurrency, saveLanguage } from '../../services/preferences.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { setPreferenceCookie, signedInUserId } from '../visitor.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { queryId } from '../params.ts';

const languageBody = z.object({ languageId: queryId });
const currencyBody = z.object({ currencyType: queryId });

export const preferenceRoutes = new Hono<ApiEnv>()
  .post('/v1/user/language/save', async (c) => {
    const { languageId } = parseInput(languageBody, await jsonBody(c.req.raw));
    const language = await saveLanguage(c.get('db'), languageId, await signedInUserId(c));
    setPreferenceCookie(c, LANGUAGE_COOKIE, language.code);
    return c.json(success(language));
  })
  .post('/v1/currency/save', async (c) => {
    const { currencyType } = parseInput(currencyBody, await jsonBody(c.req.raw));
    const currency = await saveCurrency(c.get('db'), currencyType, await signedInUserId(c));
    setPreferenceCookie(c, CURRENCY_COOKIE, currency.code);
    return c.json(success(currency));
  });
