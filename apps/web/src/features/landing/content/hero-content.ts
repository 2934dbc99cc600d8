/** Static content of the landing page's header and hero: its first screen, loaded before the sections below. */

export interface NavLink {
  label: string;
  href: string;
}

export const sectionLinks: NavLink[] = [
  { label: 'Features', href: '#features' },
  { label: 'Platform', href: '#platform' },
  { label: 'Templates', href: '#templates' },
  { label: 'Pricing', href: '#pricing' },
];

export const HERO_PROGRESS = { start: 78, min: 60, max: 95, intervalMs: 3000 } as const;

export interface HeroStat {
  value: number;
  decimals?: number;
  suffix?: string;
  label: string;
}

export const heroStats: HeroStat[] = [
  { value: 12500, suffix: '+', label: 'AI agents deployed' },
  { value: 2.4, decimals: 1, suffix: 'M', label: 'Workflow runs a month' },
  { value: 99.9, decimals: 1, suffix: '%', label: 'Platform uptime' },
  { value: 1800, suffix: '+', label: 'Teams building' },
];

export type StepState = 'done' | 'running' | 'queued';

export interface HeroStep {
  agent: string;
  task: string;
  state: StepState;
  meta: string;
}

export const heroSteps: HeroStep[] = [
  { agent: 'Researcher', task: 'Collected 42 sources on competitor pricing', state: 'done', meta: '1m 12s' },
  { agent: 'Analyst', task: 'Comparing positioning and price points', state: 'running', meta: '6.1k tokens' },
  { agent: 'Writer', task: 'Draft the executive brief', state: 'queued', meta: 'Queued' },
];
