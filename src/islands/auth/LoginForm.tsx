/**
 * The login page's form: phone or email, by code or password; email registration; forgotten
 * password (code by email, then the new password). Fields are checked with the same rules the API
 * applies again; after a sign-in the user goes to the redirect target, or back one step.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { TURNSTILE_ACTION } from '../../lib/config/accounts.ts';
import {
  callingCodeProblem,
  captchaProblem,
  codeProblem,
  emailProblem,
  passwordProblem,
  phoneProblem,
  type FieldProblem,
} from '../../lib/domain/validation.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { dropStaleUser, setUser } from '../../lib/browser/session.ts';
import type { ChallengeWidget as ChallengeWidgetConfig } from '../../lib/services/protection/turnstile.ts';
import { ChallengeWidget } from '../shared/ChallengeWidget.tsx';
import { bindFields, Field, PasswordField } from '../shared/fields.tsx';
import { useCheckedBeforeHydration, useHydrated, useValueTypedBeforeHydration } from '../shared/hydration.ts';
import { useMutation, type Failure } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import { wantsCaptcha } from './messages.ts';
import { CaptchaField, useCountdown } from './verification.tsx';

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

type Tab = 'phone' | 'email';
type View = 'login' | 'register' | 'forgot';
type Method = 'code' | 'password';
type FieldName = 'countryCode' | 'phone' | 'email' | 'code' | 'password' | 'captcha' | 'agreement';

interface Values {
  countryCode: string;
  phone: string;
  email: string;
  code: string;
  password: string;
  captcha: string;
  agreement: boolean;
}

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
  const problemText = (problem: FieldProblem) => format(messages, `error.${problem}`);

  const [tab, setTab] = useState<Tab>(initialTab);
  const [view, setView] = useState<View>('login');
  const [method, setMethod] = useState<Method>('code');
  const [resetStep, setResetStep] = useState<'verify' | 'password'>('verify');
  const [values, setValues] = useState<Values>({
    countryCode: callingCodes[0]?.callingCode ?? '',
    phone: '',
    email: '',
    code: '',
    password: '',
    captcha: '',
    agreement: false,
  });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [captchaNonce, setCaptchaNonce] = useState<number | null>(null);
  /** Set (to a fresh value each time) while the server asks the code request for a solved challenge: a token is spent once. */
  const [challengeNonce, setChallengeNonce] = useState<number | null>(null);
  const hydrated = useHydrated();
  const countrySelect = useRef<HTMLSelectElement>(null);
  const agreementBox = useRef<HTMLInputElement>(null);
  useValueTypedBeforeHydration(countrySelect, values.countryCode, (value) => set('countryCode', value));
  useCheckedBeforeHydration(agreementBox, values.agreement, (checked) => set('agreement', checked));
  const [countdown, startCountdown] = useCountdown();
  const [toast, showToast] = useToast();
  useEffect(() => {
    dropStaleUser();
  }, []);

  const channel: Tab = view === 'login' ? tab : 'email';
  const usesCode = view === 'login' ? method === 'code' : view === 'register' || resetStep === 'verify';
  const usesPassword = view === 'login' ? method === 'password' : view === 'register' || resetStep === 'password';
  /** Registration and reset choose a password (with the rules shown); only reset calls it a new one. */
  const choosesPassword = view !== 'login';
  const isNewPassword = view === 'forgot';
  const asksAgreement = view !== 'forgot';

  function set<K extends keyof Values>(name: K, value: Values[K]) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  }

  const field = bindFields('auth', values, errors, set);

  function switchTo(next: { view?: View; tab?: Tab; method?: Method }) {
    if (next.view) setView(next.view);
    if (next.tab) setTab(next.tab);
    if (next.method) setMethod(next.method);
    setResetStep('verify');
    setErrors({});
    setChallengeNonce(null);
    setValues((current) => ({ ...current, code: '', password: '', captcha: '' }));
  }

  /** Checks the fields in `names` with the shared rules; shows and focuses the first problem. */
  function check(names: FieldName[]): boolean {
    const found: Partial<Record<FieldName, string>> = {};
    const rules: Record<FieldName, () => FieldProblem | null> = {
      countryCode: () => callingCodeProblem(values.countryCode),
      phone: () => phoneProblem(values.phone),
      email: () => emailProblem(values.email),
      code: () => codeProblem(values.code),
      password: () => passwordProblem(values.password, isNewPassword),
      captcha: () => captchaProblem(values.captcha),
      agreement: () => (values.agreement ? null : 'agreement_required'),
    };
    for (const name of names) {
      const problem = rules[name]();
      if (problem) found[name] = problemText(problem);
    }
    setErrors(found);
    const first = names.find((name) => found[name]);
    if (first) document.getElementById(`auth-${first === 'countryCode' ? 'country' : first}`)?.focus();
    return !first;
  }

  function fail(title: string, { text, field, cause }: Failure) {
    if (field) setErrors((current) => ({ ...current, [field]: text }));
    if (wantsCaptcha(cause) || captchaNonce !== null) {
      // A challenge counts once: any failed attempt needs a fresh image.
      setCaptchaNonce(Date.now());
      setValues((current) => ({ ...current, captcha: '' }));
    }
    showToast({ tone: 'error', title, detail: text });
  }

  const sending = useMutation<string | undefined, { resendAfterSeconds: number }>({
    messages,
    call: (turnstileToken) => {
      if (view === 'register') return unwrap(api.v1.user.mail.regVerify.$post({ json: { email: values.email, turnstileToken } }));
      if (view === 'forgot') return unwrap(api.v1.user.mail.forgot.$post({ json: { email: values.email } }));
      const to =
        channel === 'phone'
          ? { channel: 'phone' as const, countryCode: values.countryCode, phone: values.phone, turnstileToken }
          : { channel: 'email' as const, email: values.email, turnstileToken };
      return unwrap(api.v3.user.sendLoginCode.$post({ json: to }));
    },
    onSuccess: (sent) => {
      setChallengeNonce(null);
      startCountdown(sent.resendAfterSeconds);
      showToast({ tone: 'success', title: t('codeSent') });
      document.getElementById('auth-code')?.focus();
    },
    onFailure: (failure) => {
      // A new account's first code: the widget appears, and its token sends the request again.
      if (challenge && (failure.errorCode === 'challenge_required' || failure.errorCode === 'challenge_failed')) {
        setChallengeNonce(Date.now());
      }
      fail(t('sendFailed'), failure);
    },
  });

  function sendCode() {
    if (!check(channel === 'phone' ? ['countryCode', 'phone'] : ['email'])) return;
    void sending.run(undefined);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const fields: FieldName[] = [...(channel === 'phone' ? (['countryCode', 'phone'] as const) : (['email'] as const))];
    if (view === 'forgot' && resetStep === 'password') fields.length = 0;
    if (usesCode) fields.push('code');
    if (usesPassword) fields.push('password');
    if (captchaNonce !== null) fields.push('captcha');
    if (asksAgreement) fields.push('agreement');
    if (!check(fields)) return;
    void signing.run();
  }

  const signing = useMutation({
    messages,
    call: async () => {
      const captcha = captchaNonce !== null ? values.captcha : undefined;
      if (view === 'forgot') {
        if (resetStep === 'verify') {
          await unwrap(api.v1.user.mail.verify.$post({ json: { email: values.email, code: values.code, captcha } }));
        } else {
          await unwrap(
            api.v1.user.mail.password.$post({ json: { email: values.email, code: values.code, password: values.password, captcha } }),
          );
        }
        return null;
      }
      const invite = inviteCode ?? undefined;
      if (view === 'register') {
        const account = { email: values.email, code: values.code, password: values.password, agreement: true, captcha, inviteCode: invite };
        return unwrap(api.v1.user.mail.register.$post({ json: account }));
      }
      const secret = usesCode
        ? { loginType: 'code' as const, code: values.code }
        : { loginType: 'password' as const, password: values.password };
      if (channel === 'phone') {
        const phone = { countryCode: values.countryCode, phone: values.phone, agreement: true, captcha };
        return unwrap(
          api.v1.user.login.$post({
            json: secret.loginType === 'code' ? { ...phone, ...secret, inviteCode: invite } : { ...phone, ...secret },
          }),
        );
      }
      return unwrap(api.v1.user.mail.login.$post({ json: { email: values.email, ...secret, captcha } }));
    },
    onSuccess: (info) => {
      if (view === 'forgot' && resetStep === 'verify') return setResetStep('password');
      if (view === 'forgot') {
        switchTo({ view: 'login', tab: 'email', method: 'password' });
        return showToast({ tone: 'success', title: t('resetDone') });
      }
      if (!info) return;
      setUser(info);
      continueAfterLogin(redirect, links.home, links.login);
    },
    onFailure: (failure) => fail(t(view === 'register' ? 'registerFailed' : view === 'forgot' ? 'resetFailed' : 'loginFailed'), failure),
  });
  const busy = sending.busy || signing.busy;

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next: Tab = tab === 'phone' ? 'email' : 'phone';
    switchTo({ tab: next });
    document.getElementById(`auth-tab-${next}`)?.focus();
  }

  const sendButton = (
    <button type="button" className="auth-send" onClick={sendCode} disabled={!hydrated || busy || countdown > 0}>
      {countdown > 0 ? t('resendIn', { seconds: countdown }) : t('sendCode')}
    </button>
  );
  const [beforeAgreement, afterAgreement, afterPrivacy] = (messages['auth.form.agreement'] ?? '').split(/\{\{(?:agreement|privacy)\}\}/);
  const newTab = <span className="visually-hidden"> {format(messages, 'common.opensInNewTab')}</span>;
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
    <form className="auth-form" method="post" noValidate onSubmit={submit}>
      {heading && <h2>{heading}</h2>}
      {channel === 'phone' ? (
        <>
          <div className="auth-field">
            <label htmlFor="auth-country">{t('countryCode')}</label>
            <select
              ref={countrySelect}
              id="auth-country"
              value={values.countryCode}
              onChange={(event) => set('countryCode', event.target.value)}
              autoComplete="tel-country-code"
            >
              {callingCodes.map((option) => (
                <option key={option.countryCode} value={option.callingCode}>{`${option.callingCode} ${option.name}`}</option>
              ))}
            </select>
          </div>
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
      {challenge && challengeNonce !== null && (
        <ChallengeWidget
          key={challengeNonce}
          widget={challenge}
          action={TURNSTILE_ACTION.loginCode}
          label={t('challenge')}
          onToken={(token) => void sending.run(token)}
          onUnavailable={() =>
            showToast({ tone: 'error', title: t('sendFailed'), detail: format(messages, 'error.challenge_unavailable') })
          }
        />
      )}
      <CaptchaField {...field('captcha')} nonce={captchaNonce} onRefresh={() => setCaptchaNonce(Date.now())} t={t} />
      {asksAgreement && (
        <div className="auth-agreement">
          <input
            ref={agreementBox}
            id="auth-agreement"
            type="checkbox"
            checked={values.agreement}
            onChange={(event) => set('agreement', event.target.checked)}
            aria-invalid={errors.agreement ? true : undefined}
            aria-describedby={errors.agreement ? 'auth-agreement-error' : undefined}
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
          {errors.agreement && (
            <p id="auth-agreement-error" className="auth-error">
              {errors.agreement}
            </p>
          )}
        </div>
      )}
      {view === 'login' && channel === 'phone' && method === 'code' && <p className="auth-hint">{t('phoneCreatesAccount')}</p>}
      <button type="submit" className="auth-submit" disabled={!hydrated || busy}>
        {submitLabel}
      </button>
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
    </form>
  );

  return (
    <div className="auth">
      {view === 'login' ? (
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
            {form}
          </div>
        </>
      ) : (
        form
      )}
      <Toast toast={toast} />
    </div>
  );
}
