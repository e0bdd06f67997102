/**
 * The login page's form: phone or email, by code or password; email registration; forgotten
 * password (code by email, then the new password). Fields are checked with the same rules the API
 * applies again; after a sign-in the user goes to the redirect target, or back one step.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { TURNSTILE_ACTION } from '../../lib/config/accounts.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import type { ChallengeWidget as ChallengeWidgetConfig } from '../../lib/services/protection/turnstile.ts';
import { ChallengeWidget } from '../shared/ChallengeWidget.tsx';
import { Field, PasswordField } from '../shared/fields.tsx';
import { useCheckedBeforeHydration, useHydrated, useValueTypedBeforeHydration } from '../shared/hydration.ts';
import { Toast } from '../shared/toast.tsx';
import type { Tab, View } from './login-calls.ts';
import { useLoginForm } from './useLoginForm.ts';
import { CaptchaField } from './verification.tsx';

export interface CallingCodeOption {
  countryCode: string;
  callingCode: string;
  name: string;
}

interface Props {
  messages: Messages;
  callingCodes: CallingCodeOption[];
  initialTab: Tab;
  /** A same-site path to go to after signing in (already checked by the page), or null to go back. */
  redirect: string | null;
  links: { agreement: string; privacy: string; home: string; login: string };
  /** A friend's invite code from the share link: sent with the calls that may create the account. */
  inviteCode?: string | null;
  /** Turnstile's widget, shown when the server asks a code request for a challenge; null when it asks none. */
  challenge?: ChallengeWidgetConfig | null;
}

type Texts = ReturnType<typeof scoped<'auth.form.'>>;

/** After signing in: the redirect target, else the page before (when it was ours), else home. */
function continueAfterLogin(redirect: string | null, home: string, login: string) {
  if (redirect) return window.location.assign(redirect);
  const previous = document.referrer ? new URL(document.referrer) : null;
  if (previous && previous.origin === window.location.origin && !previous.pathname.endsWith(login)) {
    return window.location.replace(previous.href);
  }
  window.location.assign(home);
}

export default function LoginForm({ messages, callingCodes, initialTab, redirect, links, inviteCode = null, challenge = null }: Props) {
  const t = scoped(messages, 'auth.form.');
  const hydrated = useHydrated();
  const login = useLoginForm({
    messages,
    initialCountryCode: callingCodes[0]?.callingCode ?? '',
    initialTab,
    inviteCode,
    hasChallenge: challenge !== null,
    onSignedIn: () => continueAfterLogin(redirect, links.home, links.login),
  });
  const { view, channel, method, resetStep, usesCode, usesPassword, values, errors, field, busy, countdown } = login;
  /** Registration and reset choose a password (with the rules shown); only reset calls it a new one. */
  const choosesPassword = view !== 'login';
  const isNewPassword = view === 'forgot';

  const sendButton = (
    <button type="button" className="auth-send" onClick={login.requestCode} disabled={!hydrated || busy || countdown > 0}>
      {countdown > 0 ? t('resendIn', { seconds: countdown }) : t('sendCode')}
    </button>
  );
  const heading = view === 'register' ? t('registerHeading') : view === 'forgot' ? t('forgotHeading') : null;
  const submitLabel =
    view === 'register'
      ? t('register')
      : view === 'forgot'
        ? t(resetStep === 'verify' ? 'next' : 'confirm')
        : channel === 'phone' && method === 'code'
          ? t('loginOrRegister')
          : t('login');

  const form = (
    <form className="auth-form" method="post" noValidate onSubmit={login.submit}>
      {heading && <h2>{heading}</h2>}
      {channel === 'phone' ? (
        <>
          <CountrySelect
            label={t('countryCode')}
            options={callingCodes}
            value={values.countryCode}
            onValue={(value) => login.set('countryCode', value)}
          />
          <Field
            {...field('phone')}
            label={t('phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            error={errors.phone ?? errors.countryCode}
            maxLength={20}
          />
        </>
      ) : (
        !(view === 'forgot' && resetStep === 'password') && (
          <Field {...field('email')} label={t('email')} type="email" inputMode="email" autoComplete="email" maxLength={254} />
        )
      )}
      {usesCode && (
        <Field {...field('code')} label={t('code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} trailing={sendButton} />
      )}
      {usesPassword && (
        <PasswordField
          {...field('password')}
          label={t(isNewPassword ? 'newPassword' : 'password')}
          showLabel={t('showPassword')}
          autoComplete={choosesPassword ? 'new-password' : 'current-password'}
          maxLength={64}
          hint={choosesPassword ? t('passwordHint') : undefined}
        />
      )}
      {challenge && login.challengeNonce !== null && (
        <ChallengeWidget
          key={login.challengeNonce}
          widget={challenge}
          action={TURNSTILE_ACTION.loginCode}
          label={t('challenge')}
          onToken={login.sendWithToken}
          onUnavailable={() =>
            login.showToast({ tone: 'error', title: t('sendFailed'), detail: format(messages, 'error.challenge_unavailable') })
          }
        />
      )}
      <CaptchaField {...field('captcha')} nonce={login.captchaNonce} onRefresh={login.refreshCaptcha} t={t} />
      {view !== 'forgot' && (
        <Agreement
          messages={messages}
          links={links}
          checked={values.agreement}
          error={errors.agreement}
          onChecked={(checked) => login.set('agreement', checked)}
        />
      )}
      {view === 'login' && channel === 'phone' && method === 'code' && <p className="auth-hint">{t('phoneCreatesAccount')}</p>}
      <button type="submit" className="auth-submit" disabled={!hydrated || busy}>
        {submitLabel}
      </button>
      <OtherWays t={t} view={view} channel={channel} method={method} switchTo={login.switchTo} />
    </form>
  );

  return (
    <div className="auth">
      {view === 'login' ? (
        <LoginTabs t={t} tab={login.tab} switchTo={login.switchTo}>
          {form}
        </LoginTabs>
      ) : (
        form
      )}
      <Toast toast={login.toast} />
    </div>
  );
}

type SwitchTo = ReturnType<typeof useLoginForm>['switchTo'];

/** Phone and email as tabs (arrow keys move between them), the form in the chosen tab's panel. */
function LoginTabs({ t, tab, switchTo, children }: { t: Texts; tab: Tab; switchTo: SwitchTo; children: ReactNode }) {
  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next: Tab = tab === 'phone' ? 'email' : 'phone';
    switchTo({ tab: next });
    document.getElementById(`auth-tab-${next}`)?.focus();
  }
  return (
    <>
      <div role="tablist" aria-label={t('tabs')} className="auth-tabs">
        {(['phone', 'email'] as const).map((name) => (
          <button
            key={name}
            id={`auth-tab-${name}`}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls="auth-panel"
            tabIndex={tab === name ? 0 : -1}
            onClick={() => switchTo({ tab: name })}
            onKeyDown={onTabKey}
          >
            {t(name === 'phone' ? 'tabPhone' : 'tabEmail')}
          </button>
        ))}
      </div>
      <div id="auth-panel" role="tabpanel" aria-labelledby={`auth-tab-${tab}`}>
        {children}
      </div>
    </>
  );
}

interface CountrySelectProps {
  label: string;
  options: CallingCodeOption[];
  value: string;
  onValue: (value: string) => void;
}

/** The calling code, as a select that keeps what was chosen before the island hydrated. */
function CountrySelect({ label, options, value, onValue }: CountrySelectProps) {
  const select = useRef<HTMLSelectElement>(null);
  useValueTypedBeforeHydration(select, value, onValue);
  return (
    <div className="auth-field">
      <label htmlFor="auth-country">{label}</label>
      <select
        ref={select}
        id="auth-country"
        value={value}
        onChange={(event) => onValue(event.target.value)}
        autoComplete="tel-country-code"
      >
        {options.map((option) => (
          <option key={option.countryCode} value={option.callingCode}>{`${option.callingCode} ${option.name}`}</option>
        ))}
      </select>
    </div>
  );
}

interface AgreementProps {
  messages: Messages;
  links: { agreement: string; privacy: string };
  checked: boolean;
  error?: string;
  onChecked: (checked: boolean) => void;
}

/** The agreement's checkbox, its sentence linking the user agreement and the privacy policy (each in a new tab), and its error. */
function Agreement({ messages, links, checked, error, onChecked }: AgreementProps) {
  const t = scoped(messages, 'auth.form.');
  const box = useRef<HTMLInputElement>(null);
  useCheckedBeforeHydration(box, checked, onChecked);
  const [beforeAgreement, afterAgreement, afterPrivacy] = (messages['auth.form.agreement'] ?? '').split(/\{\{(?:agreement|privacy)\}\}/);
  const newTab = <span className="visually-hidden"> {format(messages, 'common.opensInNewTab')}</span>;
  return (
    <div className="auth-agreement">
      <input
        ref={box}
        id="auth-agreement"
        type="checkbox"
        checked={checked}
        onChange={(event) => onChecked(event.target.checked)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'auth-agreement-error' : undefined}
      />
      <label htmlFor="auth-agreement">
        {beforeAgreement}
        <a href={links.agreement} target="_blank" rel="noopener">
          {t('userAgreement')}
          {newTab}
        </a>
        {afterAgreement}
        <a href={links.privacy} target="_blank" rel="noopener">
          {t('privacyPolicy')}
          {newTab}
        </a>
        {afterPrivacy}
      </label>
      {error && (
        <p id="auth-agreement-error" className="auth-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface OtherWaysProps {
  t: Texts;
  view: View;
  channel: Tab;
  method: 'code' | 'password';
  switchTo: SwitchTo;
}

/** The buttons to the form's other ways: code or password, registration and reset (by email), or back to login. */
function OtherWays({ t, view, channel, method, switchTo }: OtherWaysProps) {
  return (
    <div className="auth-links">
      {view === 'login' ? (
        <>
          <button type="button" onClick={() => switchTo({ method: method === 'code' ? 'password' : 'code' })}>
            {t(method === 'code' ? 'usePassword' : 'useCode')}
          </button>
          {channel === 'email' && (
            <button type="button" onClick={() => switchTo({ view: 'register' })}>
              {t('register')}
            </button>
          )}
          {channel === 'email' && (
            <button type="button" onClick={() => switchTo({ view: 'forgot' })}>
              {t('forgot')}
            </button>
          )}
        </>
      ) : (
        <button type="button" onClick={() => switchTo({ view: 'login', tab: 'email' })}>
          {t('backToLogin')}
        </button>
      )}
    </div>
  );
}
