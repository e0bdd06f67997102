/**
 * Cloudflare Turnstile's widget in the browser: its script is loaded on the first step that shows a
 * challenge (never with a page), once, and the widget rendered explicitly with the step's action.
 */
import type { ChallengeWidget } from '../../lib/services/protection/turnstile.ts';

interface TurnstileOptions {
  sitekey: string;
  action: string;
  language: string;
  callback: (token: string) => void;
  'expired-callback': () => void;
  'error-callback': () => void;
}

interface Turnstile {
  render(container: HTMLElement, options: TurnstileOptions): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

let loading: Promise<Turnstile> | null = null;

function loadTurnstile(scriptUrl: string): Promise<Turnstile> {
  loading ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not load')));
    script.onerror = () => {
      // A dropped connection: the next step that shows the widget tries again.
      loading = null;
      reject(new Error('Turnstile did not load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * Renders the widget in `container`: `onToken` gets each solved token, null when it expires or the
 * widget fails (the step then waits for a new one). Answers the function that removes the widget.
 */
export async function renderChallenge(
  container: HTMLElement,
  widget: ChallengeWidget,
  action: string,
  language: string,
  onToken: (token: string | null) => void,
): Promise<() => void> {
  const turnstile = await loadTurnstile(widget.scriptUrl);
  const widgetId = turnstile.render(container, {
    sitekey: widget.siteKey,
    action,
    language,
    callback: onToken,
    'expired-callback': () => onToken(null),
    'error-callback': () => onToken(null),
  });
  return () => turnstile.remove(widgetId);
}
