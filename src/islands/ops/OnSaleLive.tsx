/**
 * A session's live on-sale on its console screen: tickets sold, awaiting payment and left, and each
 * waiting room's line, read again from `GET v1/operator/sessions/{id}/live` every few seconds while
 * the page is shown (not while it is hidden: a tab left open costs nothing). The server rendered the
 * first figures; a failed read keeps the last ones and says so.
 */
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { OnSaleLiveState, RoomState } from '../../lib/services/on-sale/on-sale-console.ts';

/** How often the figures are read again. */
const POLL_MS = 5000;

interface Props {
  sessionId: number;
  initial: OnSaleLiveState;
  /** The page's language, for the time of the last read (the island renders on the server first, where there is no document). */
  locale: string;
  messages: Messages;
}

function Room({ label, room, m }: { label: string; room: RoomState | null; m: Messages }) {
  return (
    <section className="live-room" aria-label={label}>
      <h3>{label}</h3>
      {room ? (
        <dl className="live-figures">
          <div>
            <dt>{format(m, 'ops.onSale.live.inLine')}</dt>
            <dd>{room.inLine}</dd>
          </div>
          <div>
            <dt>{format(m, 'ops.onSale.live.admitted')}</dt>
            <dd>{room.admitted}</dd>
          </div>
          <div>
            <dt>{format(m, 'ops.onSale.live.rate')}</dt>
            <dd>{room.admissionsPerMinute}</dd>
          </div>
        </dl>
      ) : (
        <p>{format(m, 'ops.onSale.live.noRoom')}</p>
      )}
    </section>
  );
}

export default function OnSaleLive({ sessionId, initial, locale, messages: m }: Props) {
  const [live, setLive] = useState(initial);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let stopped = false;
    const read = () => {
      if (document.hidden) return;
      unwrap(api.v1.operator.sessions[':id'].live.$get({ param: { id: String(sessionId) } }))
        .then((next) => {
          if (stopped) return;
          setLive(next);
          setFailed(false);
        })
        .catch(() => {
          if (!stopped) setFailed(true);
        });
    };
    const timer = window.setInterval(read, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [sessionId]);

  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'medium', timeZone: 'UTC' }).format(live.at);
  return (
    <div className="live">
      <dl className="live-figures">
        <div>
          <dt>{format(m, 'ops.onSale.live.sold')}</dt>
          <dd>{live.sold}</dd>
        </div>
        <div>
          <dt>{format(m, 'ops.onSale.live.held')}</dt>
          <dd>{live.held}</dd>
        </div>
        <div>
          <dt>{format(m, 'ops.onSale.live.left')}</dt>
          <dd>{live.left}</dd>
        </div>
      </dl>
      {live.highDemand ? (
        <Room label={format(m, 'ops.onSale.live.room')} room={live.room} m={m} />
      ) : (
        <p>{format(m, 'ops.onSale.live.notHighDemand')}</p>
      )}
      {live.tierRooms.map(({ tierId, room }) => (
        <Room key={tierId} label={format(m, 'ops.onSale.live.tierRoom', { id: tierId })} room={room} m={m} />
      ))}
      <p className="live-time" aria-live="polite">
        {failed ? format(m, 'ops.onSale.live.failed') : format(m, 'ops.onSale.live.updated', { time: `${time} UTC` })}
      </p>
    </div>
  );
}
