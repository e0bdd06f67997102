/** Message keys the header islands receive: each island's own texts and the network failure texts. */
import { NETWORK_MESSAGE_PREFIXES } from '../shared/messages.ts';

export const CITY_PICKER_MESSAGES = ['header.city.', 'header.geo.', ...NETWORK_MESSAGE_PREFIXES] as const;
export const PREFERENCES_MESSAGES = ['header.prefs.', ...NETWORK_MESSAGE_PREFIXES] as const;
/** Each dialog's island also says when its lists are loading or could not load. */
const DIALOG_LISTS_MESSAGES = ['header.lists.', 'error.network'] as const;
export const CITY_PICKER_DIALOG_MESSAGES = [...CITY_PICKER_MESSAGES, ...DIALOG_LISTS_MESSAGES] as const;
export const PREFERENCES_DIALOG_MESSAGES = [...PREFERENCES_MESSAGES, ...DIALOG_LISTS_MESSAGES] as const;
