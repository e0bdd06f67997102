/**
 * The waitlist of the page's sold-out tiers for a signed-in buyer: join with a group
 * within the order limits (the tier named by the page's fragment picked, when they came back from
 * signing in on its link), then their place in line, or the tickets held for them with a link to
 * checkout, and leaving. The page may come from the edge cache, so the buyer's own state is read
 * from `GET v1/waitlist` here, never rendered into the HTML.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { tierOfWaitlistHash } from '../../lib/domain/waitlist-anchor.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { WaitlistEntryView } from '../../lib/services/on-sale/waitlist.ts';
import { failureText } from '../shared/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';

interface Props {
  /**
   * The sold-out tiers, each named with its session. A high-demand on-sale's are not joinable (their
   * tickets that come back go to its waiting room's line), but an entry made before still shows.
   */
  tiers: { id: number; label: string; joinable: boolean }[];
  /** The group sizes one may wait for: the activity's order limits. */
  min: number;
  max: number;
  holdMinutes: number;
  messages: Messages;
}

function timeOf(ms: number): string {
  return new Intl.DateTimeFormat(document.documentElement.lang || 'en', { hour: '2-digit', minute: '2-digit' }).format(ms);
}

export default function Waitlist({ tiers, min, max, holdMinutes, messages: m }: Props) {
  const [entries, setEntries] = useState<WaitlistEntryView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tierId, setTierId] = useState('');
  const [quantity, setQuantity] = useState(String(min));
  const [toast, setToast] = useToast();

  useEffect(() => {
    unwrap(api.v1.waitlist.$get())
      .then(setEntries)
      .catch((cause: unknown) => setError(failureText(cause, m)));
  }, [m]);

  // Back from signing in on one tier's waitlist link: that tier is picked, and the form is brought to the eye.
  const loaded = entries !== null;
  useEffect(() => {
    if (!loaded) return;
    const linked = tierOfWaitlistHash(window.location.hash);
    if (linked === null || !tiers.some((tier) => tier.id === linked && tier.joinable)) return;
    setTierId(String(linked));
    document.getElementById('waitlist-tier')?.focus();
  }, [loaded, tiers]);

  const ours = (entries ?? []).filter((entry) => tiers.some((tier) => tier.id === entry.tierId));
  const open = tiers.filter((tier) => tier.joinable && !ours.some((entry) => entry.tierId === tier.id));
  // The tier picked stays picked until it is joined; then the first tier still open is.
  const chosen = open.find((tier) => String(tier.id) === tierId) ?? open[0];

  const fail = ({ text }: { text: string }) => setError(text);
  const joining = useMutation({
    messages: m,
    call: () => unwrap(api.v1.waitlist.$post({ json: { tierId: chosen.id, quantity: Number(quantity) } })),
    onSuccess: (entry: WaitlistEntryView) => {
      setEntries((now) => [...(now ?? []).filter((other) => other.id !== entry.id), entry]);
      setToast({ tone: 'success', title: format(m, 'detail.waitlist.joined') });
    },
    onFailure: fail,
  });
  const leaving = useMutation({
    messages: m,
    call: (id: number) => unwrap(api.v1.waitlist[':id'].$delete({ param: { id: String(id) } })),
    onSuccess: (_: unknown, id: number) => {
      setEntries((now) => (now ?? []).filter((entry) => entry.id !== id));
      setToast({ tone: 'success', title: format(m, 'detail.waitlist.left') });
    },
    onFailure: fail,
  });

  if (entries === null) {
    return <p className="waitlist-note">{error ?? format(m, 'detail.waitlist.loading')}</p>;
  }
  const sizes = Array.from({ length: max - min + 1 }, (_, index) => String(min + index));

  function join(event: FormEvent) {
    event.preventDefault();
    setError(null);
    void joining.run();
  }

  return (
    <div className="waitlist">
      {ours.map((entry) => {
        const tier = tiers.find((one) => one.id === entry.tierId)?.label ?? entry.tier;
        return (
          <div key={entry.id} className="waitlist-entry">
            {entry.offer ? (
              <>
                <p>{format(m, 'detail.waitlist.held', { count: entry.offer.quantity, tier, time: timeOf(entry.offer.expiresAt) })}</p>
                <a className="notify-button" href={entry.offer.checkoutPath}>
                  {format(m, 'detail.waitlist.buy')}
                </a>
              </>
            ) : (
              <p>{format(m, 'detail.waitlist.place', { count: entry.quantity, place: entry.place ?? 1, tier })}</p>
            )}
            <button type="button" className="waitlist-leave" disabled={leaving.busy} onClick={() => void leaving.run(entry.id)}>
              {format(m, 'detail.waitlist.leave')}
            </button>
          </div>
        );
      })}
      {chosen && (
        <form className="waitlist-join" onSubmit={join}>
          <p className="waitlist-note">{format(m, 'detail.waitlist.intro', { minutes: holdMinutes })}</p>
          <label htmlFor="waitlist-tier">{format(m, 'detail.waitlist.tier')}</label>
          <select id="waitlist-tier" value={chosen.id} onChange={(event) => setTierId(event.target.value)}>
            {open.map((tier) => (
              <option key={tier.id} value={tier.id}>
                {tier.label}
              </option>
            ))}
          </select>
          <label htmlFor="waitlist-quantity">{format(m, 'detail.waitlist.quantity')}</label>
          <select id="waitlist-quantity" value={quantity} onChange={(event) => setQuantity(event.target.value)}>
            {sizes.map((size) => (
              <option key={size}>{size}</option>
            ))}
          </select>
          <button type="submit" className="notify-button" disabled={joining.busy}>
            {format(m, 'detail.waitlist.join')}
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <Toast toast={toast} />
    </div>
  );
}
