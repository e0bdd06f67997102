/** The language and currency a user chose in the header popup, kept on the account when signed in. */
import { eq } from 'drizzle-orm';
import { currencies, languages, users } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors.ts';
import type { CurrencyView, LanguageView } from '../catalogue/reference-data.ts';
import type { RequestScope } from '../platform/scope.ts';

/** Validates a language id and records it on the account of a signed-in user. */
export async function saveLanguage(scope: RequestScope, languageId: number, userId: number | null): Promise<LanguageView> {
  const { db } = scope;
  const [language] = await db
    .select({ id: languages.id, code: languages.code, name: languages.name, languageType: languages.languageType })
    .from(languages)
    .where(eq(languages.id, languageId));
  if (!language) throw new DomainError('language_not_found', {}, 'languageId');
  if (userId !== null) await db.update(users).set({ languageCode: language.code }).where(eq(users.id, userId));
  return language;
}

/** Validates a currency type and records its code on the account of a signed-in user. */
export async function saveCurrency(scope: RequestScope, currencyType: number, userId: number | null): Promise<CurrencyView> {
  const { db } = scope;
  const [currency] = await db
    .select({ code: currencies.code, desc: currencies.desc, currencyType: currencies.currencyType })
    .from(currencies)
    .where(eq(currencies.currencyType, currencyType));
  if (!currency) throw new DomainError('currency_not_found', {}, 'currencyType');
  if (userId !== null) await db.update(users).set({ currencyCode: currency.code }).where(eq(users.id, userId));
  return currency;
}
