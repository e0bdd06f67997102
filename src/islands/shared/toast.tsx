/** A toast that hides itself after a while, in live regions that screen readers announce. */
import { useEffect, useState } from 'react';
import './toast.css';

export interface ToastMessage {
  tone: 'error' | 'success';
  title: string;
  detail?: string;
}

const TOAST_MS = { success: 4000, error: 8000 } as const;

export function useToast(): [ToastMessage | null, (toast: ToastMessage | null) => void] {
  const [toast, setToast] = useState<ToastMessage | null>(null);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS[toast.tone]);
    return () => clearTimeout(timer);
  }, [toast]);
  return [toast, setToast];
}

/** Both live regions are always present, so screen readers announce what appears in them. */
export function Toast({ toast }: { toast: ToastMessage | null }) {
  const body = toast && (
    <div className={`auth-toast auth-toast-${toast.tone}`}>
      <strong>{toast.title}</strong>
      {toast.detail && toast.detail !== toast.title && <span>{toast.detail}</span>}
    </div>
  );
  return (
    <>
      <div role="alert" className="auth-toast-region">
        {toast?.tone === 'error' && body}
      </div>
      <div role="status" className="auth-toast-region">
        {toast?.tone === 'success' && body}
      </div>
    </>
  );
}
