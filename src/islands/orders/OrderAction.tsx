/**
 * Cancel Order, Confirm Receipt (SPEC.md section 6) or a postponed show's refund: a button that asks first, in a modal dialog
 * with the spec's prompt, then posts the action and reloads, so the server-rendered page shows the
 * order's new state. A refused action (the order moved on meanwhile, or the network failed) keeps
 * the page and says why.
 */
import { useRef } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import './orders.css';

export type OrderActionKind = 'cancel' | 'confirmReceipt' | 'requestRefund';

const ENDPOINT = { cancel: 'cancel', confirmReceipt: 'confirm-receipt', requestRefund: 'refund' } as const satisfies Record<
  OrderActionKind,
  string
>;

interface Props {
  kind: OrderActionKind;
  orderId: number;
  orderNo: string;
  messages: Messages;
  /** The primary look (the detail page's main action) or the quiet one (a secondary action). */
  primary?: boolean;
}

export default function OrderAction({ kind, orderId, orderNo, messages: m, primary = false }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const id = `order-${kind}-${orderId}`;
  const action = useMutation<void>({
    messages: m,
    call: (_input, idempotencyKey) =>
      unwrap(api.v1.orders[':id'][ENDPOINT[kind]].$post({ param: { id: String(orderId) } }, callOptions({ idempotencyKey }))),
    busyAfterSuccess: true,
    onSuccess: () => location.reload(),
    onFailure: ({ text }) => {
      dialog.current?.close();
      showToast({ tone: 'error', title: format(m, 'orders.action.failed'), detail: text });
    },
  });
  const busy = action.busy;

  function open() {
    // One key per opening of the dialog: the server recognises a repeated press by it.
    action.renewKey();
    dialog.current?.showModal();
  }

  return (
    <>
      <button
        type="button"
        className={primary ? 'orders-button orders-button-primary' : 'orders-button'}
        disabled={!hydrated || busy}
        aria-label={format(m, `orders.action.${kind}Named`, { orderNo })}
        onClick={open}
      >
        {format(m, `orders.action.${kind}`)}
      </button>
      <dialog ref={dialog} className="orders-dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-prompt`}>
        <h2 id={`${id}-title`}>{format(m, `orders.action.${kind}Title`)}</h2>
        <p id={`${id}-prompt`}>{format(m, `orders.action.${kind}Prompt`)}</p>
        <div className="orders-dialog-buttons">
          <button type="button" className="orders-button" disabled={busy} onClick={() => dialog.current?.close()}>
            {format(m, 'orders.action.dismiss')}
          </button>
          <button type="button" className="orders-button orders-button-primary" disabled={busy} onClick={() => void action.run()}>
            {format(m, `orders.action.${kind}Yes`)}
          </button>
        </div>
      </dialog>
      <Toast toast={toast} />
    </>
  );
}
