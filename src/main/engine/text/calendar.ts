// English calendar words, for reading dates in text (ingest dates, dates said in chat).

/** Month names, January first (index = month number - 1). */
export const MONTHS: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** Day names, Sunday first (index = Date#getUTCDay()). */
export const WEEKDAYS: readonly string[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];
