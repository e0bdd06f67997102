/**
 * The home page's pop-up boxes, curated from the console: a title and a body in each catalogue
 * script, a link on this site, the currency their money placeholders are written in (domain/pop-box.ts),
 * and the window they show in; retired boxes show no more. Writes move the catalogue version, so
 * cached home pages are replaced at once (docs/storefront-curation.md).
 */
import { asc, eq } from 'drizzle-orm';
import { HOME_POPUP_SCENE } from '../../config/browse.ts';
import { batch } from '../../data/batch.ts';
import { currencies, popUpBoxes } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import { isSitePath, scheduleFault, scheduleState, type ScheduleState } from '../../domain/storefront-schedule.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { found, refuse, withNewId } from './curation.ts';

export interface ScriptTexts {
  en: string;
  'zh-Hant': string;
  'zh-Hans': string;
}

export interface PopupInput {
  title: ScriptTexts;
  body: ScriptTexts;
  /** A path on this site, or empty for a box that links nowhere. */
  link: string;
  currency: string;
  startsAt: number;
  endsAt: number;
}

export interface PopupRecord extends PopupInput {
  id: number;
  sceneType: string;
  retiredAt: number | null;
  state: ScheduleState;
}

type PopupRow = typeof popUpBoxes.$inferSelect;

const emptyTexts = (): ScriptTexts => ({ en: '', 'zh-Hant': '', 'zh-Hans': '' });

function textsOf(value: unknown): ScriptTexts {
  const texts = emptyTexts();
  if (value && typeof value === 'object') {
    for (const script of Object.keys(texts) as (keyof ScriptTexts)[]) {
      const text = (value as Record<string, unknown>)[script];
      if (typeof text === 'string') texts[script] = text;
    }
  }
  return texts;
}

/** A box's row as the console edits it: its content's texts and link read back. */
function recordOf(row: PopupRow, now: number): PopupRecord {
  let content: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.content);
    if (parsed && typeof parsed === 'object') content = parsed as Record<string, unknown>;
  } catch {
    // A box whose content cannot be read is listed with empty texts, to be rewritten or retired.
  }
  const schedule = { startsAt: row.validFrom, endsAt: row.validTo, retiredAt: row.retiredAt };
  return {
    id: row.id,
    sceneType: row.sceneType,
    title: textsOf(content.title),
    body: textsOf(content.body),
    link: typeof content.link === 'string' ? content.link : '',
    currency: row.currency,
    startsAt: row.validFrom,
    endsAt: row.validTo,
    retiredAt: row.retiredAt,
    state: scheduleState(schedule, now),
  };
}

function columnsOf(input: PopupInput) {
  const content = { title: input.title, body: input.body, ...(input.link ? { link: input.link } : {}) };
  return { content: JSON.stringify(content), currency: input.currency, validFrom: input.startsAt, validTo: input.endsAt };
}

/** Every box of the home scene, oldest first. */
export async function listPopups(scope: StaffScope): Promise<PopupRecord[]> {
  const rows = await scope.db.select().from(popUpBoxes).where(eq(popUpBoxes.sceneType, HOME_POPUP_SCENE)).orderBy(asc(popUpBoxes.id));
  return rows.map((row) => recordOf(row, scope.now));
}

async function popupRow(scope: StaffScope, id: number): Promise<PopupRow | undefined> {
  const [row] = await scope.db.select().from(popUpBoxes).where(eq(popUpBoxes.id, id));
  return row;
}

async function check(scope: StaffScope, input: PopupInput, previousEndsAt?: number): Promise<void> {
  if (input.link && !isSitePath(input.link)) refuse({ code: 'storefront_link_invalid', field: 'link' });
  refuse(scheduleFault(input, scope.now, previousEndsAt));
  const [currency] = await scope.db.select({ code: currencies.code }).from(currencies).where(eq(currencies.code, input.currency));
  if (!currency) throw new DomainError('currency_not_found', {}, 'currency');
}

export async function createPopup(scope: StaffScope, input: PopupInput): Promise<PopupRecord> {
  await check(scope, input);
  return withNewId(scope.db, popUpBoxes, popUpBoxes.id, async (id) => {
    const row: PopupRow = { id, sceneType: HOME_POPUP_SCENE, retiredAt: null, ...columnsOf(input) };
    await batch(scope.db, {
      insert: scope.db.insert(popUpBoxes).values(row),
      audit: auditEntry(scope, { action: 'popup.create', subjectType: 'popup', subjectId: id, before: null, after: row }),
    });
    return recordOf(row, scope.now);
  });
}

export async function updatePopup(scope: StaffScope, id: number, input: PopupInput): Promise<PopupRecord> {
  const before = found(await popupRow(scope, id), true);
  await check(scope, input, before.validTo);
  const after: PopupRow = { ...before, ...columnsOf(input) };
  await batch(scope.db, {
    update: scope.db.update(popUpBoxes).set(columnsOf(input)).where(eq(popUpBoxes.id, id)),
    audit: auditEntry(scope, { action: 'popup.update', subjectType: 'popup', subjectId: id, before, after }),
  });
  return recordOf(after, scope.now);
}

/** Takes a box down for good; retiring a retired box changes nothing. */
export async function retirePopup(scope: StaffScope, id: number): Promise<PopupRecord> {
  const before = found(await popupRow(scope, id));
  if (before.retiredAt !== null) return recordOf(before, scope.now);
  const after: PopupRow = { ...before, retiredAt: scope.now };
  await batch(scope.db, {
    update: scope.db.update(popUpBoxes).set({ retiredAt: scope.now }).where(eq(popUpBoxes.id, id)),
    audit: auditEntry(scope, { action: 'popup.retire', subjectType: 'popup', subjectId: id, before, after }),
  });
  return recordOf(after, scope.now);
}
