/**
 * The language and currency popup (SPEC.md sections 2 and 4): both lists with a check mark on the
 * selected entry, and Confirm, which forgets the location city, saves the currency on the server,
 * switches the language (the URL prefix) and closes by loading the page in the new choice, so every
 * price is rendered again in the chosen currency, formatted for the chosen language.
 *
 * Rendered by DialogLists once the dialog has opened and its lists have loaded. The lists stay
 * disabled until hydrated, so no choice is made before then.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { isLocale, localizedPath, type Locale } from '../../lib/i18n/locales.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { confirmPreferences, rememberLanguageList, type CurrencyOption, type LanguageOption } from '../../lib/browser/preferences.ts';
import { useMutation } from '../shared/mutation.ts';

interface Props {
  languages: LanguageOption[];
  currencies: CurrencyOption[];
  /** The page's language and the currency its prices are shown in. */
  language: Locale;
  currency: string;
  /** The page's path without its language prefix. */
  path: string;
  messages: Messages;
}

export default function PreferencesPopup({ languages, currencies, language, currency, path, messages: m }: Props) {
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    rememberLanguageList(languages);
    setReady(true);
  }, [languages]);

  const saving = useMutation({
    messages: m,
    call: (chosen: { language: LanguageOption; currency: CurrencyOption; locale: Locale }) =>
      confirmPreferences(chosen.language, chosen.currency, currency),
    busyAfterSuccess: true,
    onSuccess: (_, chosen) => window.location.assign(localizedPath(path, chosen.locale) + window.location.search),
    onFailure: ({ text }) => setError(text),
  });

  function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosenLanguage = languages.find((option) => option.code === form.get('language'));
    const chosenCurrency = currencies.find((option) => option.code === form.get('currency'));
    if (!chosenLanguage || !isLocale(chosenLanguage.code) || !chosenCurrency) return;
    setError(null);
    void saving.run({ language: chosenLanguage, currency: chosenCurrency, locale: chosenLanguage.code });
  }

  return (
    <form className="pp" onSubmit={confirm}>
      <fieldset disabled={!ready || saving.busy}>
        <legend>{format(m, 'header.prefs.language')}</legend>
        {languages.map((option) => (
          <label key={option.code} className="pp-option">
            <input type="radio" name="language" value={option.code} defaultChecked={option.code === language} />
            <span lang={option.code}>{option.name}</span>
          </label>
        ))}
      </fieldset>
      <fieldset disabled={!ready || saving.busy}>
        <legend>{format(m, 'header.prefs.currency')}</legend>
        {currencies.map((option) => (
          <label key={option.code} className="pp-option">
            <input type="radio" name="currency" value={option.code} defaultChecked={option.code === currency} />
            <span>{`${option.code} - ${option.desc}`}</span>
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="pp-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="pp-confirm" disabled={!ready || saving.busy}>
        {format(m, 'header.prefs.confirm')}
      </button>
    </form>
  );
}
