/**
 * Choosing attendees for an order: as many as the event needs, then back to the page that asked,
 * with their ids. Says how many to add, how many remain to choose, or that all are chosen.
 */
import { useState } from 'react';
import { attendeeSelectionStatus } from '../../lib/domain/identity.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import './profile.css';

interface Row {
  id: number;
  name: string;
  detail: string;
}

interface Props {
  messages: Messages;
  attendees: Row[];
  need: number;
  /** The same-site page to return to; the picker adds `attendeeIds`. */
  returnHref: string;
}

export default function AttendeePicker({ messages, attendees, need, returnHref }: Props) {
  const [chosen, setChosen] = useState<number[]>([]);
  const hydrated = useHydrated();
  const status = attendeeSelectionStatus(attendees.length, chosen.length, need);
  const url = new URL(returnHref, 'http://same.site');
  url.searchParams.set('attendeeIds', chosen.join(','));
  const done = status.key === 'complete';

  function toggle(id: number, on: boolean) {
    setChosen((current) => (on ? [...current, id] : current.filter((chosenId) => chosenId !== id)));
  }

  return (
    <div className="profile-picker">
      <p role="status" className="profile-status">
        {format(messages, `profile.attendee.${status.key}`, { count: status.count })}
      </p>
      <ul className="profile-choices">
        {attendees.map((attendee) => (
          <li key={attendee.id}>
            <label>
              <input
                type="checkbox"
                checked={chosen.includes(attendee.id)}
                disabled={!hydrated || (!chosen.includes(attendee.id) && chosen.length >= need)}
                onChange={(event) => toggle(attendee.id, event.target.checked)}
              />
              <span className="profile-choice-name">{attendee.name}</span>
              <span className="profile-choice-detail">{attendee.detail}</span>
            </label>
          </li>
        ))}
      </ul>
      {done ? (
        <a className="profile-primary" href={`${url.pathname}${url.search}${url.hash}`}>
          {format(messages, 'profile.attendee.confirm')}
        </a>
      ) : (
        <span className="profile-primary" aria-disabled="true">
          {format(messages, 'profile.attendee.confirm')}
        </span>
      )}
    </div>
  );
}
