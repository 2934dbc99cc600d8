import { CronExpressionParser } from 'cron-parser';

/*
 * Schedule triggers (docs/product-rules.md): a standard 5-field cron expression (minute, hour, day of
 * month, month, day of week) read in an IANA time zone, UTC when none is given. Pure: the clock is
 * always passed in. The server computes a workflow's next tick with these, the builder previews them.
 */

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** One field: `*`, numbers or names, ranges, lists and steps (`*\/15`, `1-5`, `MON-FRI`, `1,15`, `0-30/10`). */
function fieldPattern(names: string[] = []) {
  const atom = ['\\d{1,2}', ...names].join('|');
  const element = `(?:\\*|(?:${atom})(?:-(?:${atom}))?)(?:\\/\\d{1,2})?`;
  return new RegExp(`^${element}(?:,${element})*$`, 'i');
}
const FIELD_PATTERNS = [
  fieldPattern(),
  fieldPattern(),
  fieldPattern(),
  fieldPattern(MONTH_NAMES),
  fieldPattern(DAY_NAMES),
];

/** The five fields of an expression, or null when it is not a standard 5-field expression. */
function cronFields(expression: string | undefined): string[] | null {
  const fields = expression?.trim().split(/\s+/) ?? [];
  if (fields.length !== 5) return null;
  return fields.every((field, i) => FIELD_PATTERNS[i].test(field)) ? fields : null;
}

/** UTC unless a zone is named (an empty name counts as none). */
export const scheduleTimezone = (timezone: string | undefined | null) => timezone?.trim() || 'UTC';

/** Whether the runtime knows this IANA time zone (Intl). */
export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function parse(expression: string, timezone: string, from: Date) {
  return CronExpressionParser.parse(expression.trim(), { tz: timezone, currentDate: from });
}

/**
 * A standard 5-field cron expression whose values are in range and which can fire (e.g. not
 * `0 0 31 2 *`). Six- and seven-field forms (seconds, years), `@daily`-style macros and the
 * non-standard `L`, `W`, `#`, `?`, `H` are refused.
 */
export function isValidCron(expression: string | undefined): boolean {
  if (!cronFields(expression)) return false;
  try {
    parse(expression!, 'UTC', new Date(0));
    return true;
  } catch {
    return false;
  }
}

/**
 * The next `count` ticks of the expression in the zone, each strictly after `from`; empty when the
 * expression or the zone is invalid.
 */
export function nextRunTimes(
  expression: string | undefined,
  timezone: string | undefined | null,
  from: Date,
  count: number,
): Date[] {
  const zone = scheduleTimezone(timezone);
  if (!isValidCron(expression) || !isValidTimezone(zone)) return [];
  try {
    const parsed = parse(expression!, zone, from);
    const times: Date[] = [];
    for (let i = 0; i < count && parsed.hasNext(); i++) times.push(parsed.next().toDate());
    return times;
  } catch {
    return [];
  }
}

const DAY_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const isNumber = (field: string) => /^\d{1,2}$/.test(field);
const pad = (n: number) => String(n).padStart(2, '0');
const joinWords = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** A day-of-week field as names (`MON-FRI`, `1,3,5`, `0`, `7`), or null when it is something else. */
function weekdays(field: string): number[] | null {
  const day = (token: string) => {
    const named = DAY_NAMES.indexOf(token.toUpperCase());
    const n = named >= 0 ? named : /^\d$/.test(token) ? Number(token) : NaN;
    return n === 7 ? 0 : n >= 0 && n <= 6 ? n : null;
  };
  const days = new Set<number>();
  for (const part of field.split(',')) {
    const [a, b, ...rest] = part.split('-');
    const from = day(a);
    const to = b === undefined ? from : day(b);
    if (rest.length > 0 || from === null || to === null || (b !== undefined && Number(b) !== 7 && to < from))
      return null;
    const end = b !== undefined && to === 0 ? 7 : to;
    for (let d = from; d <= end; d++) days.add(d % 7);
  }
  return [...days].sort((x, y) => x - y);
}

function month(field: string): number | null {
  const named = MONTH_NAMES.indexOf(field.toUpperCase());
  if (named >= 0) return named;
  return isNumber(field) && Number(field) >= 1 && Number(field) <= 12 ? Number(field) - 1 : null;
}

/**
 * A plain-English reading of the common shapes ('Every minute', 'Every 15 minutes', 'Every day at
 * 08:30', 'Every weekday at 09:00', 'Every Monday and Friday at 07:00', 'On day 1 of every month at
 * 00:00', …); any other valid expression is shown as it is, and an invalid one gives null.
 */
export function describeCron(expression: string | undefined): string | null {
  const fields = cronFields(expression);
  if (!fields || !isValidCron(expression)) return null;
  const [minute, hour, dayOfMonth, monthField, dayOfWeek] = fields;
  const shown = fields.join(' ');
  const everyDay = dayOfMonth === '*' && monthField === '*' && dayOfWeek === '*';
  const step = (field: string) => /^\*\/(\d{1,2})$/.exec(field)?.[1];

  if (everyDay && hour === '*') {
    if (minute === '*') return 'Every minute';
    const n = step(minute);
    if (n) return n === '1' ? 'Every minute' : `Every ${Number(n)} minutes`;
    if (isNumber(minute))
      return minute === '0' || minute === '00'
        ? 'Every hour'
        : `Every hour at ${Number(minute)} minutes past`;
    return shown;
  }
  if (everyDay && isNumber(minute)) {
    const n = step(hour);
    if (n) {
      const past = Number(minute) === 0 ? '' : ` at ${Number(minute)} minutes past`;
      return n === '1' ? `Every hour${past}` : `Every ${Number(n)} hours${past}`;
    }
  }

  // The rest name times of day: a minute and one or more hours.
  if (!isNumber(minute) || !/^\d{1,2}(,\d{1,2})*$/.test(hour)) return shown;
  const times = hour
    .split(',')
    .map(Number)
    .sort((a, b) => a - b)
    .map((h) => `${pad(h)}:${pad(Number(minute))}`);
  const at = `at ${joinWords(times)}`;

  if (everyDay) return `Every day ${at}`;
  if (dayOfMonth === '*' && monthField === '*') {
    const days = weekdays(dayOfWeek);
    if (!days) return shown;
    const key = days.join(',');
    if (key === '1,2,3,4,5') return `Every weekday ${at}`;
    if (key === '0,6') return `Every weekend day ${at}`;
    if (days.length === 7) return `Every day ${at}`;
    // Monday first, Sunday last, as calendars in most places show a week.
    const mondayFirst = [...days].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
    return `Every ${joinWords(mondayFirst.map((d) => DAY_LONG[d]))} ${at}`;
  }
  if (dayOfWeek === '*' && isNumber(dayOfMonth)) {
    if (monthField === '*') return `On day ${Number(dayOfMonth)} of every month ${at}`;
    const m = month(monthField);
    if (m !== null) return `Every year on ${MONTH_LONG[m]} ${Number(dayOfMonth)} ${at}`;
  }
  return shown;
}
