/**
 * The console's catalogue forms as flat text values (what the inputs hold, named as the API names
 * the fields: `names.en`, `offSaleAt`…) turned into drafts, and the domain's own rules run on them
 * before anything is sent, so every field's problem shows at once and nothing typed is lost.
 */
import { instantOfWallTime } from '../../lib/domain/calendar.ts';
import {
  type ActivityDraft,
  activityProblems,
  type ArtistDraft,
  artistProblems,
  type CategoryDraft,
  categoryProblems,
  type DraftProblem,
  type Names,
  type SessionDraft,
  sessionProblems,
  type TierDraft,
  tierProblems,
  type VenueDraft,
  venueProblems,
} from '../../lib/domain/catalogue-drafts.ts';
import { parseMinorUnits } from '../../lib/domain/money.ts';

export type FormValues = Record<string, string>;
export type RecordKind = 'venue' | 'artist' | 'category' | 'activity';

const names = (values: FormValues, field: string): Names => ({
  en: values[`${field}.en`] ?? '',
  zhHant: values[`${field}.zhHant`] ?? '',
  zhHans: values[`${field}.zhHans`] ?? '',
});
/** A number typed into a field; NaN (refused by the rules) for anything else. */
const numberOf = (text: string | undefined) => (text === undefined || text.trim() === '' ? Number.NaN : Number(text));
const idOf = (text: string | undefined) => numberOf(text);

export function venueDraftOf(values: FormValues): VenueDraft {
  return {
    cityId: idOf(values.cityId),
    names: names(values, 'names'),
    addressEn: values.addressEn ?? '',
    addressZh: values.addressZh ?? '',
    mapUrl: (values.mapUrl ?? '').trim(),
    longitude: numberOf(values.longitude),
    latitude: numberOf(values.latitude),
  };
}

export function artistDraftOf(values: FormValues): ArtistDraft {
  return { names: names(values, 'names'), pinyin: values.pinyin ?? '' };
}

export function categoryDraftOf(values: FormValues): CategoryDraft {
  return { slug: (values.slug ?? '').trim(), names: names(values, 'names'), pinyin: values.pinyin ?? '', sort: numberOf(values.sort) || 0 };
}

export function activityDraftOf(values: FormValues): ActivityDraft {
  return {
    categoryId: idOf(values.categoryId),
    cityId: idOf(values.cityId),
    venueId: idOf(values.venueId),
    artistId: values.artistId ? idOf(values.artistId) : null,
    boxOfficeSellerId: values.boxOfficeSellerId ? idOf(values.boxOfficeSellerId) : null,
    names: names(values, 'names'),
    descriptions: names(values, 'descriptions'),
    buyingNotes: names(values, 'buyingNotes'),
    realNameRequired: values.realNameRequired === 'true',
    poster: values.poster ?? '',
    saleStatus: numberOf(values.saleStatus),
    numMax: numberOf(values.numMax),
  };
}

/** A session's times are typed as wall-clock times of the activity's city. */
export function sessionDraftOf(values: FormValues, timeZone: string): SessionDraft {
  const time = (field: string) => instantOfWallTime(values[field] ?? '', timeZone);
  const cap = (values.accountTicketCap ?? '').trim();
  return {
    startsAt: time('startsAt'),
    endsAt: time('endsAt'),
    onSaleAt: time('onSaleAt'),
    offSaleAt: time('offSaleAt'),
    accountTicketCap: cap === '' ? null : numberOf(cap),
    highDemand: values.highDemand === 'true',
  };
}

/** The face value is typed in major units ("880.50") and sent in minor units of the tier's currency. */
export function tierDraftOf(values: FormValues, minorDigits: ReadonlyMap<string, number>): TierDraft {
  const currency = values.currency ?? '';
  const faceValue = parseMinorUnits(values.faceValue ?? '', minorDigits.get(currency) ?? 0);
  return {
    names: names(values, 'names'),
    faceValue: faceValue ?? Number.NaN,
    currency,
    quota: numberOf(values.quota),
    sort: numberOf(values.sort) || 0,
  };
}

/** Problems of an unparsable time the rules cannot name: a time that is no instant. */
function missingTimes(draft: SessionDraft): DraftProblem[] {
  return (['startsAt', 'endsAt', 'onSaleAt', 'offSaleAt'] as const)
    .filter((field) => Number.isNaN(draft[field]))
    .map((field) => ({ field, code: field === 'endsAt' || field === 'startsAt' ? 'session_times_invalid' : 'sale_times_unordered' }));
}

export function sessionFormProblems(draft: SessionDraft): DraftProblem[] {
  const missing = missingTimes(draft);
  return missing.length > 0 ? missing : sessionProblems(draft);
}

export function tierFormProblems(draft: TierDraft, currencies: readonly string[], sold: number): DraftProblem[] {
  return tierProblems(draft, { currencies, sold });
}

/** The draft of a record form and its problems by the domain's rules. */
export function recordDraft(kind: RecordKind, values: FormValues) {
  switch (kind) {
    case 'venue': {
      const draft = venueDraftOf(values);
      return { draft, problems: venueProblems(draft) };
    }
    case 'artist': {
      const draft = artistDraftOf(values);
      return { draft, problems: artistProblems(draft) };
    }
    case 'category': {
      const draft = categoryDraftOf(values);
      return { draft, problems: categoryProblems(draft) };
    }
    case 'activity': {
      const draft = activityDraftOf(values);
      return { draft, problems: activityProblems(draft) };
    }
  }
}
