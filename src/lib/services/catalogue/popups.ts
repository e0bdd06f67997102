/** Pop-up boxes of a scene (SPEC.md section 7: POST /api/v1/popBox/list, scene HOME on the home page). */
import { and, asc, eq, gt, inArray, isNull, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { currencies, popUpBoxes } from '../../db/schema.ts';
import { popBoxMessage, type BoxMoney, type PopBoxMessage } from '../../domain/pop-box.ts';
import { translator } from '../../i18n/index.ts';
import { couponAmountText, couponMoney } from '../orders/coupons.ts';
import { known, read, readOne, type Read } from '../../data/read-together.ts';
import type { CurrencyView } from './reference-data.ts';
import type { RequestScope } from '../platform/scope.ts';

export interface PopBoxView {
  id: number;
  sceneType: string;
  /** A JSON string, as the spec's clients read it (see domain/pop-box.ts). */
  content: string;
  /** The currency the box's amounts are written in. */
  currencyVO: CurrencyView;
}

/** Boxes of the scenes `inScenes` picks, valid at `now` and not retired, oldest first. */
const popBoxesSelect = (db: Db, inScenes: SQL, now: Bound<number>) =>
  db
    .select({ box: popUpBoxes, currency: { code: currencies.code, desc: currencies.desc, currencyType: currencies.currencyType } })
    .from(popUpBoxes)
    .innerJoin(currencies, eq(currencies.code, popUpBoxes.currency))
    .where(and(inScenes, lte(popUpBoxes.validFrom, now), gt(popUpBoxes.validTo, now), isNull(popUpBoxes.retiredAt)))
    .orderBy(asc(popUpBoxes.id));

// One scene's boxes are read by every rendered home page: that select's text is built once (data/compiled-select.ts).
const sceneBoxesStatement = compiledSelect<{ sceneType: string; now: number }, ReturnType<typeof popBoxesSelect>>(
  ['sceneType', 'now'],
  (db, { sceneType, now }) => popBoxesSelect(db, eq(popUpBoxes.sceneType, sceneType), now),
);

/** The boxes of the given scenes that are valid at `now`, oldest first. */
export function popBoxesRead(scope: RequestScope, sceneTypes: readonly string[]): Read<PopBoxView[]> {
  const { db, now } = scope;
  if (sceneTypes.length === 0) return known([]);
  const query =
    sceneTypes.length === 1
      ? sceneBoxesStatement(db, { sceneType: sceneTypes[0], now })
      : popBoxesSelect(db, inArray(popUpBoxes.sceneType, [...sceneTypes]), now);
  return read({ boxes: query }, ({ boxes }) =>
    boxes.map(({ box, currency }) => ({ id: box.id, sceneType: box.sceneType, content: box.content, currencyVO: currency })),
  );
}

export const popBoxes = (scope: RequestScope, sceneTypes: readonly string[]) => readOne(scope.db, popBoxesRead(scope, sceneTypes));

/** Money of a box in its currency, written in the reader's currency as coupon amounts are (an offer is a coupon to come). */
function boxMoney(scope: RequestScope, boxCurrency: string): BoxMoney {
  const { ctx, currencies: table } = scope;
  const t = translator(ctx.locale);
  return (units, kind) => {
    const { own, inUserCurrency } = couponMoney(units, boxCurrency, kind, ctx.currency, ctx.locale, table);
    return couponAmountText(own, inUserCurrency, t);
  };
}

/**
 * The readable messages of a scene's boxes in the request's locale, their money in its currency;
 * boxes whose content cannot be read are logged and skipped.
 */
export function popBoxMessagesRead(scope: RequestScope, sceneType: string): Read<(PopBoxMessage & { id: number })[]> {
  const boxes = popBoxesRead(scope, [sceneType]);
  return {
    statements: boxes.statements,
    shape: (results) =>
      boxes.shape(results).flatMap((box) => {
        const message = popBoxMessage(box.content, scope.ctx.locale, boxMoney(scope, box.currencyVO.code));
        if (!message) console.warn(JSON.stringify({ monitor: 'pop_box_unreadable', id: box.id }));
        return message ? [{ id: box.id, ...message }] : [];
      }),
  };
}
