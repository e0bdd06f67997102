/** Pop-up boxes of a scene (SPEC.md section 7: POST /api/v1/popBox/list, scene HOME on the home page). */
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import { currencies, popUpBoxes } from '../db/schema.ts';
import { popBoxMessage, type PopBoxMessage } from '../domain/pop-box.ts';
import { known, read, readOne, type Read } from '../db/read-together.ts';
import type { CurrencyView } from './reference-data.ts';
import type { RequestScope } from './scope.ts';

export interface PopBoxView {
  id: number;
  sceneType: string;
  /** A JSON string, as the spec's clients read it (see domain/pop-box.ts). */
  content: string;
  /** The currency the box's amounts are written in. */
  currencyVO: CurrencyView;
}

/** The boxes of the given scenes that are valid at `now`, oldest first. */
export function popBoxesRead(scope: RequestScope, sceneTypes: readonly string[]): Read<PopBoxView[]> {
  const { db, now } = scope;
  if (sceneTypes.length === 0) return known([]);
  const query = db
    .select({ box: popUpBoxes, currency: { code: currencies.code, desc: currencies.desc, currencyType: currencies.currencyType } })
    .from(popUpBoxes)
    .innerJoin(currencies, eq(currencies.code, popUpBoxes.currency))
    .where(and(inArray(popUpBoxes.sceneType, [...sceneTypes]), lte(popUpBoxes.validFrom, now), gt(popUpBoxes.validTo, now)))
    .orderBy(asc(popUpBoxes.id));
  return read([query], ([rows]) =>
    rows.map(({ box, currency }) => ({ id: box.id, sceneType: box.sceneType, content: box.content, currencyVO: currency })),
  );
}

export const popBoxes = (scope: RequestScope, sceneTypes: readonly string[]) => readOne(scope.db, popBoxesRead(scope, sceneTypes));

/** The readable messages of a scene's boxes in a locale; boxes whose content cannot be read are logged and skipped. */
export function popBoxMessagesRead(scope: RequestScope, sceneType: string): Read<(PopBoxMessage & { id: number })[]> {
  const boxes = popBoxesRead(scope, [sceneType]);
  return {
    statements: boxes.statements,
    shape: (results) =>
      boxes.shape(results).flatMap((box) => {
        const message = popBoxMessage(box.content, scope.ctx.locale);
        if (!message) console.warn(JSON.stringify({ monitor: 'pop_box_unreadable', id: box.id }));
        return message ? [{ id: box.id, ...message }] : [];
      }),
  };
}
