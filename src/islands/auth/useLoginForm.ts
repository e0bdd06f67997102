/**
 * The login form's state and actions: what it shows (tab, view, method, the reset's step), its
 * values and their errors, the captcha and challenge once the server asks for them, sending a code
 * and submitting. Fields are checked with the same rules the API applies again.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { dropStaleUser, setUser } from '../../lib/browser/session.ts';
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
import { bindFields } from '../shared/fields.tsx';
import { useMutation, type Failure } from '../shared/mutation.ts';
import { useToast } from '../shared/toast.tsx';
import { sendCode, signIn, type FormState, type Method, type ResetStep, type Tab, type Values, type View } from './login-calls.ts';
import { wantsCaptcha } from './messages.ts';
import { useCountdown } from './verification.tsx';

export type FieldName = keyof Values;

interface Options {
  messages: Messages;
  initialCountryCode: string;
  initialTab: Tab;
  inviteCode: string | null;
  /** Whether the page has a challenge widget to show when the server asks a code request for one. */
  hasChallenge: boolean;
  /** After signing in. */
  onSignedIn: () => void;
}

export function useLoginForm({ messages, initialCountryCode, initialTab, inviteCode, hasChallenge, onSignedIn }: Options) {
  const t = scoped(messages, 'auth.form.');
  const [tab, setTab] = useState<Tab>(initialTab);
  const [view, setView] = useState<View>('login');
  const [method, setMethod] = useState<Method>('code');
  const [resetStep, setResetStep] = useState<ResetStep>('verify');
  const [values, setValues] = useState<Values>({
    countryCode: initialCountryCode,
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
  const [countdown, startCountdown] = useCountdown();
  const [toast, showToast] = useToast();
  useEffect(() => {
    dropStaleUser();
  }, []);

  const channel: Tab = view === 'login' ? tab : 'email';
  const usesCode = view === 'login' ? method === 'code' : view === 'register' || resetStep === 'verify';
  const usesPassword = view === 'login' ? method === 'password' : view === 'register' || resetStep === 'password';
  const form: FormState = { view, channel, resetStep, usesCode };

  function set<K extends keyof Values>(name: K, value: Values[K]) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  }

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
      password: () => passwordProblem(values.password, view === 'forgot'),
      captcha: () => captchaProblem(values.captcha),
      agreement: () => (values.agreement ? null : 'agreement_required'),
    };
    for (const name of names) {
      const problem = rules[name]();
      if (problem) found[name] = format(messages, `error.${problem}`);
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
    call: (turnstileToken) => sendCode(form, values, turnstileToken),
    onSuccess: (sent) => {
      setChallengeNonce(null);
      startCountdown(sent.resendAfterSeconds);
      showToast({ tone: 'success', title: t('codeSent') });
      document.getElementById('auth-code')?.focus();
    },
    onFailure: (failure) => {
      // A new account's first code: the widget appears, and its token sends the request again.
      if (hasChallenge && (failure.errorCode === 'challenge_required' || failure.errorCode === 'challenge_failed')) {
        setChallengeNonce(Date.now());
      }
      fail(t('sendFailed'), failure);
    },
  });

  const signing = useMutation({
    messages,
    call: () => signIn(form, values, captchaNonce !== null ? values.captcha : undefined, inviteCode ?? undefined),
    onSuccess: (info) => {
      if (view === 'forgot' && resetStep === 'verify') return setResetStep('password');
      if (view === 'forgot') {
        switchTo({ view: 'login', tab: 'email', method: 'password' });
        return showToast({ tone: 'success', title: t('resetDone') });
      }
      if (!info) return;
      setUser(info);
      onSignedIn();
    },
    onFailure: (failure) => fail(t(view === 'register' ? 'registerFailed' : view === 'forgot' ? 'resetFailed' : 'loginFailed'), failure),
  });

  function requestCode() {
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
    if (view !== 'forgot') fields.push('agreement');
    if (!check(fields)) return;
    void signing.run();
  }

  return {
    ...form,
    tab,
    method,
    usesPassword,
    values,
    errors,
    set,
    field: bindFields('auth', values, errors, set),
    switchTo,
    captchaNonce,
    refreshCaptcha: () => setCaptchaNonce(Date.now()),
    challengeNonce,
    countdown,
    toast,
    showToast,
    busy: sending.busy || signing.busy,
    requestCode,
    sendWithToken: (token: string) => void sending.run(token),
    submit,
  };
}
