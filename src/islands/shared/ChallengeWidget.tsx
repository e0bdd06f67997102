/**
 * Cloudflare Turnstile's widget in an island, shown once the server asked for a challenge: its
 * script loads then (islands/shared/turnstile.ts), and each solved token goes to `onToken`.
 */
import { useEffect, useRef } from 'react';
import { widgetLanguage } from '../../lib/domain/turnstile.ts';
import type { ChallengeWidget as Widget } from '../../lib/services/protection/turnstile.ts';
import { renderChallenge } from './turnstile.ts';

interface Props {
  widget: Widget;
  action: string;
  label: string;
  onToken: (token: string) => void;
  /** The script could not be loaded (a dropped connection). */
  onUnavailable: () => void;
}

export function ChallengeWidget({ widget, action, label, onToken, onUnavailable }: Props) {
  const slot = useRef<HTMLDivElement>(null);
  // The latest handlers, so that a re-render does not render the widget again (which would spend the visitor's effort).
  const handlers = useRef({ onToken, onUnavailable });
  handlers.current = { onToken, onUnavailable };
  useEffect(() => {
    let remove: (() => void) | null = null;
    let unmounted = false;
    const language = widgetLanguage(document.documentElement.lang);
    renderChallenge(slot.current!, widget, action, language, (token) => token && handlers.current.onToken(token)).then(
      (removeWidget) => {
        if (unmounted) removeWidget();
        else remove = removeWidget;
      },
      () => handlers.current.onUnavailable(),
    );
    return () => {
      unmounted = true;
      remove?.();
    };
  }, [widget, action]);
  return (
    <div className="challenge">
      <p>{label}</p>
      <div ref={slot} />
    </div>
  );
}
