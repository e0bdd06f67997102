/** Pop-up boxes of a scene (SPEC.md section 7: POST /api/v1/popBox/list, scene HOME on the home page). */
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { currencies, popUpBoxes } from '../db/schema.ts';
import { popBoxMessage, type PopBoxMessage } from '../domain/pop-box.ts';
import type { Locale } from '../i18n/locales.ts';
import type { CurrencyView } from './currency.ts';

export interface PopBoxView {
  id: number;
  sceneType: string;
  /** A JSON string, as the spec's clients read it (see domain/pop-box.ts). */
  content: string;
  /** The currency the box's amounts are written in. */
  currencyVO: CurrencyView;
}

/** The boxes of the given scenes that are valid at `now`, oldest first. */
export async function popBoxes(db: Db, sceneTypes: readonly string[], now: number): Promise<PopBoxView[]> {
  if (sceneTypes.length === 0) return [];
  const rows = await db
    .select({ box: popUpBoxes, currency: { code: currencies.code, desc: currencies.desc, currencyType: currencies.currencyType } })
    .from(popUpBoxes)
    .innerJoin(currencies, eq(currencies.code, popUpBoxes.currency))
    .where(and(inArray(popUpBoxes.sceneType, [...sceneTypes]), lte(popUpBoxes.validFrom, now), gt(popUpBoxes.validTo, now)))
    .orderBy(asc(popUpBoxes.id));
  return rows.map(({ box, currency }) => ({ id: box.id, sceneType: box.sceneType, content: box.content, currencyVO: currency }));
}

/** The readable messages of a scene's boxes in a locale; boxes whose content cannot be read are logged and skipped. */
export async function popBoxMessages(db: Db, sceneType: string, locale: Locale, now: number): Promise<(PopBoxMessage & { id: number })[]> {
  const boxes = await popBoxes(db, [sceneType], now);
  return boxes.flatMap((box) => {
    const message = popBoxMessage(box.content, locale);
    if (!message) console.warn(JSON.stringify({ monitor: 'pop_box_unreadable', id: box.id }));
    return message ? [{ id: box.id, ...message }] : [];
  });
}
