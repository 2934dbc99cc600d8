import type { Trend } from '../analytics-figures';

/** The text colour of a success rate by its trend: green from 80 %, amber from 60 %, red below. */
export const TREND_TEXT: Record<Trend, string> = {
  up: 'text-emerald-700 dark:text-emerald-400',
  neutral: 'text-amber-700 dark:text-amber-400',
  down: 'text-red-700 dark:text-red-400',
};
