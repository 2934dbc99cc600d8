/**
 * Static marketing content of the public landing page's sections below the hero (the header's and the
 * hero's own content is in hero-content.ts, which the first screen loads without this file).
 * Plan names and prices are the contracts' vocabulary (zod-free); FAQ answers claim only what the product does.
 */
import * as paths from '@crewline/contracts/paths';
import { PLAN_PRICE_CENTS, planDisplayNames, type PlanId } from '@crewline/contracts/vocabulary';
import {
  Bot,
  BrainCircuit,
  ChartLine,
  Cpu,
  Database,
  Grid2x2,
  Hash,
  Send,
  ShieldCheck,
  Sparkles,
  UsersRound,
  Webhook,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

export interface Integration {
  name: string;
  icon: LucideIcon;
}

export const integrations: Integration[] = [
  { name: 'OpenAI', icon: Sparkles },
  { name: 'Anthropic', icon: BrainCircuit },
  { name: 'Ollama', icon: Cpu },
  { name: 'PostgreSQL', icon: Database },
  { name: 'SendGrid', icon: Send },
  { name: 'Microsoft 365', icon: Grid2x2 },
  { name: 'Slack', icon: Hash },
  { name: 'Webhooks', icon: Webhook },
];

export interface Feature {
  title: string;
  description: string;
  icon: LucideIcon;
}

export const features: Feature[] = [
  {
    title: 'Agent teams',
    description:
      'Assemble researchers, analysts and writers into crews that hand work to one another and finish the job together.',
    icon: UsersRound,
  },
  {
    title: 'Visual workflow builder',
    description:
      'Drag agents onto a canvas, connect them and pick sequential, hierarchical or parallel execution. No glue code.',
    icon: Workflow,
  },
  {
    title: 'Real-time analytics',
    description: 'Watch every run live: step-by-step output, tokens and duration as they happen.',
    icon: ChartLine,
  },
  {
    title: 'LLM integration',
    description: 'Bring OpenAI, Anthropic or local Ollama models and tune the model per agent.',
    icon: BrainCircuit,
  },
  {
    title: 'Role-based agents',
    description: 'Give every agent a role, a goal and a backstory so it acts like the specialist you need.',
    icon: Bot,
  },
  {
    title: 'Memory management',
    description: 'Agents keep context across steps and runs, so long workflows stay coherent.',
    icon: Database,
  },
  {
    title: 'Enterprise security',
    description:
      'Organization-level isolation, role-based access, encrypted secrets and a full audit trail of every run.',
    icon: ShieldCheck,
  },
];

export const teamRoles = ['Researcher', 'Analyst', 'Writer', 'Reviewer'];

export interface OverviewStat {
  label: string;
  value: string;
  trend: string;
}

export const overviewStats: OverviewStat[] = [
  { label: 'Active agents', value: '24', trend: '+3 this week' },
  { label: 'Runs today', value: '1,284', trend: '+12% today' },
  { label: 'Success rate', value: '94.2%', trend: '+1.8 pts' },
  { label: 'Avg. run time', value: '38s', trend: '−4s faster' },
];

/** Relative bar heights (percent) of the mock "executions per hour" chart. */
export const overviewChart: number[] = [34, 48, 41, 62, 55, 70, 66, 82, 74, 90, 78, 96];

export interface RunningAgent {
  name: string;
  workflow: string;
  progress: number;
  status: 'Running' | 'Completed' | 'Queued';
}

export const runningAgents: RunningAgent[] = [
  { name: 'Research Analyst', workflow: 'Market Research', progress: 72, status: 'Running' },
  { name: 'Support Triage', workflow: 'Ticket Routing', progress: 88, status: 'Running' },
  { name: 'Content Writer', workflow: 'Blog Pipeline', progress: 100, status: 'Completed' },
  { name: 'Invoice Extractor', workflow: 'Month-end Close', progress: 0, status: 'Queued' },
];

export const platformPlaceholders: Record<'agents' | 'workflows' | 'analytics', string> = {
  agents: 'Create, configure and monitor every agent of your organization in one place.',
  workflows: 'Design multi-agent workflows on the visual canvas and run them on demand or on a schedule.',
  analytics: 'Track executions, success rates, token usage and durations across all your workflows.',
};

export type FlowType = 'Sequential' | 'Hierarchical' | 'Parallel';
/** How a template starts when not by Run (template-cards.ts's triggerLabel). */
export type TriggerLabel = 'Event-driven' | 'Scheduled';

export interface TemplatePreview {
  title: string;
  description: string;
  /** One of the template library's categories (template-cards.ts, LANDING_CATEGORIES). */
  category: string;
  agents: number;
  flowType: FlowType;
  trigger: TriggerLabel | null;
  rating: number;
  uses: string;
}

/** Shown only when the library cannot be read: six of its workflows, as it describes them. */
export const templates: TemplatePreview[] = [
  {
    title: 'Blog Post Pipeline',
    description: 'Research a topic, draft an SEO-ready article and edit it for publishing.',
    category: 'Content Marketing',
    agents: 3,
    flowType: 'Sequential',
    trigger: null,
    rating: 4.5,
    uses: '0',
  },
  {
    title: 'Product Launch Announcement',
    description: 'A launch manager briefs writers for the blog post, the social posts and the email.',
    category: 'Content Marketing',
    agents: 4,
    flowType: 'Hierarchical',
    trigger: null,
    rating: 4.5,
    uses: '0',
  },
  {
    title: 'Support Ticket Triage',
    description: 'Classify each incoming ticket and draft a first reply the moment it arrives.',
    category: 'Customer Service',
    agents: 2,
    flowType: 'Sequential',
    trigger: 'Event-driven',
    rating: 4.5,
    uses: '0',
  },
  {
    title: 'Customer Feedback Analysis',
    description: 'Read feedback for sentiment, themes and feature requests in parallel.',
    category: 'Customer Service',
    agents: 3,
    flowType: 'Parallel',
    trigger: 'Event-driven',
    rating: 4.5,
    uses: '0',
  },
  {
    title: 'Email Campaign Drafting',
    description: 'Plan a campaign, write its emails and check them before they go out.',
    category: 'Email Marketing',
    agents: 3,
    flowType: 'Sequential',
    trigger: null,
    rating: 4.5,
    uses: '0',
  },
  {
    title: 'Weekly KPI Digest',
    description: 'Every Monday, review last week’s key metrics and send the team a short digest.',
    category: 'Business Intelligence',
    agents: 2,
    flowType: 'Sequential',
    trigger: 'Scheduled',
    rating: 4.5,
    uses: '0',
  },
];

export interface Plan {
  id: PlanId;
  name: string;
  price: number;
  description: string;
  features: string[];
  popular?: boolean;
}

export const plans: Plan[] = [
  {
    id: 'starter',
    name: planDisplayNames.starter,
    price: PLAN_PRICE_CENTS.starter / 100,
    description: 'For small teams automating their first workflows.',
    features: [
      'up to 5 agents',
      '1,000 monthly executions',
      'basic templates',
      'up to 3 team members',
      'email support',
      'web interface',
    ],
  },
  {
    id: 'professional',
    name: planDisplayNames.professional,
    price: PLAN_PRICE_CENTS.professional / 100,
    description: 'For growing teams running agents in production.',
    popular: true,
    features: [
      'unlimited agents',
      '10,000 monthly executions',
      'all templates plus custom',
      'up to 15 team members',
      'priority support',
      'advanced analytics',
      'API access',
      'team collaboration',
    ],
  },
  {
    id: 'enterprise',
    name: planDisplayNames.enterprise,
    price: PLAN_PRICE_CENTS.enterprise / 100,
    description: 'For organizations that need scale and control.',
    features: [
      'unlimited everything',
      'unlimited team members',
      'custom integrations',
      '24/7 dedicated support',
      'SOC 2 compliance',
      'SLA guarantee',
      'training and onboarding',
      'on-premise option',
    ],
  },
];

export interface Faq {
  question: string;
  answer: string;
}

export const faqs: Faq[] = [
  {
    question: 'Can I upgrade or downgrade my plan at any time?',
    answer:
      'Yes. Upgrades are immediate: the new limits and features are available right away. Downgrades take effect at the start of your next billing cycle.',
  },
  {
    question: 'Do you offer a discount for annual billing?',
    answer:
      'Yes. Yearly billing is 20% off compared with paying month to month: choose Yearly when you subscribe.',
  },
  {
    question: 'Which payment methods do you accept?',
    answer:
      'Cards and other methods your region supports through Stripe, shown when you enter your payment details.',
  },
  {
    question: 'Can we pay by invoice?',
    answer:
      'Yes, on Enterprise: choose Pay by invoice when you subscribe, and Stripe emails each invoice, due within 30 days.',
  },
  {
    question: 'Is there a free plan?',
    answer:
      'Yes. The free plan includes 3 agents, 100 monthly executions and one member, so you can try Crewline with a real workflow before you upgrade.',
  },
  {
    question: 'Do I need a credit card to start the free trial?',
    answer: 'No. Every plan comes with a 14-day free trial and no credit card is needed to start.',
  },
];

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
  initials: string;
  /** Tailwind classes for the avatar circle (light and dark). */
  avatarClass: string;
}

export const testimonials: Testimonial[] = [
  {
    quote:
      'We turned a two-day research routine into a Crewline crew. The brief is in our inbox before stand-up, every single morning.',
    name: 'Maya Chen',
    role: 'Head of Growth, Northwind Labs',
    initials: 'MC',
    avatarClass: 'bg-violet-100 text-violet-700 dark:bg-violet-500/20 dark:text-violet-300',
  },
  {
    quote:
      'Our ops team wired up ticket triage on the canvas without waiting for engineering. Every run is traceable, which our auditors love.',
    name: 'Daniel Okafor',
    role: 'VP Customer Operations, Brightpath',
    initials: 'DO',
    avatarClass: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/20 dark:text-emerald-300',
  },
  {
    quote:
      'Choosing the model per agent cut our LLM bill by 40%: a frontier model for reasoning, a local Ollama model for the grunt work.',
    name: 'Sofia Martínez',
    role: 'CTO, Ledgerly',
    initials: 'SM',
    avatarClass: 'bg-sky-100 text-sky-700 dark:bg-sky-500/20 dark:text-sky-300',
  },
];

interface FooterLink {
  label: string;
  /** A section of this page (`/#pricing`), a page of the app (`/docs`) or one the server answers. */
  href: string;
}

export interface FooterColumn {
  title: string;
  links: FooterLink[];
}

/** Every link goes somewhere real (e2e/landing.spec.ts loads each); Contact sales is a button. */
export const footerColumns: FooterColumn[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '/#features' },
      { label: 'Templates', href: '/#templates' },
      { label: 'Integrations', href: '/#integrations' },
      { label: 'Pricing', href: '/#pricing' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Documentation', href: '/docs' },
      { label: 'API Reference', href: '/docs/api' },
      { label: 'Webhooks', href: '/docs/webhooks' },
      // The public health check: the API and its database answering.
      { label: 'Status', href: paths.system.health },
    ],
  },
];
