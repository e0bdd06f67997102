/**
 * The console's storefront pages: the overview (each kind's count by state) and one page per kind
 * listing everything with its state, a form that creates one or edits the one chosen, and a retire
 * button per item. The form posts to its page; its texts are parsed into the operator routes' input
 * (api/storefront-inputs.ts) and handed to the same services, and a refusal re-shows the form with
 * what was typed and the localized error on its field.
 */
import type { AstroGlobal } from 'astro';
import { STOREFRONT_TIME_ZONE } from '../config/storefront.ts';
import { parseInput } from '../api/validate.ts';
import { DomainError } from '../domain/errors.ts';
import { parseMinorUnits } from '../domain/money.ts';
import { instantOfLocal, localOfInstant } from '../domain/storefront-schedule.ts';
import { pageI18n } from '../i18n/page.ts';
import type { Translate } from '../i18n/index.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';
import { STOREFRONT_KINDS, type FieldSpec, type ItemView, type Kind, type KindName } from './storefront-kinds.ts';

type Values = { [name: string]: string };

const STATES = ['live', 'scheduled', 'ended', 'retired'] as const;

/** The overview: each kind's page and its count of items in each state. */
export async function loadStorefrontOverview(astro: AstroGlobal) {
  const page = await staffPage(astro, 'storefront');
  if (page instanceof PageExit) return page;
  const { t } = pageI18n(astro.locals);
  const kinds = await Promise.all(
    (Object.values(STOREFRONT_KINDS) as unknown as Kind[]).map(async (kind) => {
      const records = await kind.list(page.scope);
      const counts = Object.fromEntries(STATES.map((state) => [state, records.filter((record) => record.state === state).length]));
      return { path: kind.path, title: t(kind.title), counts: t('storefront.counts', counts) };
    }),
  );
  return { roles: page.scope.staffRoles, kinds };
}

function valueAt(record: unknown, path: string): unknown {
  return path
    .split(/\.(.*)/s, 2)
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Values)[key] : undefined), record);
}

function setAt(body: { [key: string]: unknown }, path: string, value: unknown): void {
  const [head, rest] = path.split(/\.(.*)/s, 2);
  if (rest === undefined) {
    body[head] = value;
    return;
  }
  const inner = (body[head] ?? {}) as { [key: string]: unknown };
  body[head] = inner;
  setAt(inner, rest, value);
}

function minorDigits(scope: StaffScope, currency: string): number {
  return scope.currencies.get(currency)?.minorDigits ?? 2;
}

/** A record's fields as its form shows them. */
function formValues(fields: readonly FieldSpec[], record: unknown, scope: StaffScope): Values {
  const values: Values = {};
  for (const field of fields) {
    const value = valueAt(record, field.name);
    if (value === null || value === undefined) values[field.name] = '';
    else if (field.kind === 'datetime') values[field.name] = localOfInstant(Number(value), STOREFRONT_TIME_ZONE);
    else if (field.kind === 'money') {
      const digits = minorDigits(scope, String(valueAt(record, field.currencyField ?? 'currency')));
      values[field.name] = (Number(value) / 10 ** digits).toFixed(digits);
    } else values[field.name] = String(value);
  }
  return values;
}

/**
 * The form's texts as the route's JSON body: times read in the console's zone, numbers and money
 * (in the field's currency) as numbers. A text that does not read stays text, so the schema refuses it on its field.
 */
function bodyOf(fields: readonly FieldSpec[], values: Values, scope: StaffScope): unknown {
  const body: { [key: string]: unknown } = {};
  for (const field of fields) {
    const text = values[field.name]?.trim() ?? '';
    let value: unknown = text;
    if (
      field.kind === 'datetime' ||
      field.kind === 'number' ||
      field.kind === 'money' ||
      (field.kind === 'select' && field.name.endsWith('Id'))
    ) {
      if (text === '') value = field.optional ? null : undefined;
      else if (field.kind === 'datetime') value = instantOfLocal(text, STOREFRONT_TIME_ZONE) ?? text;
      else if (field.kind === 'money')
        value = parseMinorUnits(text, minorDigits(scope, values[field.currencyField ?? 'currency'] ?? '')) ?? text;
      else value = /^\d{1,15}$/.test(text) ? Number(text) : text;
    }
    setAt(body, field.name, value);
  }
  return body;
}

interface Refusal {
  errors: { [field: string]: string };
  formError: string | null;
}

function refusalOf(error: DomainError, fields: readonly FieldSpec[], t: Translate): Refusal {
  const field = fields.find((spec) => spec.name === error.field);
  const params = error.code === 'invalid_input' ? { field: field?.label ?? error.field ?? '' } : error.params;
  const message = t(`error.${error.code}`, params);
  return field ? { errors: { [field.name]: message }, formError: null } : { errors: {}, formError: message };
}

/** One kind's page: its list, its form (new, or the item `?edit=` names), and what a POST did. */
export async function loadStorefrontKind(astro: AstroGlobal, name: KindName) {
  const page = await staffPage(astro, 'storefront');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  const { t, locale, link } = pageI18n(astro.locals);
  const kind = STOREFRONT_KINDS[name] as unknown as Kind;
  const fields = kind.fields(scope, t, locale);
  const here = link(kind.path);
  let values: Values = kind.defaults(scope.now);
  let editingId: number | null = null;
  let refusal: Refusal = { errors: {}, formError: null };

  if (astro.request.method === 'POST') {
    const form = await astro.request.formData().catch(() => null);
    const action = String(form?.get('action') ?? '');
    const id = Number(form?.get('id') ?? '');
    for (const field of fields) values[field.name] = String(form?.get(field.name) ?? '');
    editingId = action === 'update' && Number.isSafeInteger(id) ? id : null;
    try {
      if (action === 'retire') {
        await kind.retire(scope, id);
        return PageExit.redirect(`${here}?done=retired`, 303);
      }
      const input = parseInput(kind.schema, bodyOf(fields, values, scope));
      if (editingId !== null) await kind.update(scope, editingId, input);
      else await kind.create(scope, input);
      return PageExit.redirect(`${here}?done=saved`, 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refusal = refusalOf(error, fields, t);
      if (action === 'retire') values = kind.defaults(scope.now);
      astro.response.status = 400;
    }
  }

  const records = await kind.list(scope);
  const editParam = astro.url.searchParams.get('edit');
  if (astro.request.method !== 'POST' && editParam) {
    const record = records.find((row) => String(row.id) === editParam && row.state !== 'retired');
    if (record) {
      editingId = record.id;
      values = formValues(fields, record, scope);
    }
  }
  const items: ItemView[] = records.map((record) => ({ id: record.id, state: record.state, ...kind.item(record, scope, t, locale) }));
  const done = astro.url.searchParams.get('done');
  return {
    roles: scope.staffRoles,
    title: t(kind.title),
    view: {
      here,
      fields,
      values,
      ...refusal,
      editingId,
      items,
      notice: done === 'saved' ? t('storefront.saved') : done === 'retired' ? t('storefront.retiredDone') : null,
      withImageUpload: fields.some((field) => field.kind === 'image'),
    },
  };
}
