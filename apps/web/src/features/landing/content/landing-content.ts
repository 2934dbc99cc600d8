/**
 * Static marketing content of the public landing page's sections below the hero (the header's and the
 * hero's own content is in hero-content.ts, which the first screen loads without this file).
 * Plan names and prices match the Billing tab (docs/product-rules.md); FAQ answers claim only what the product does.
 */
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

export const templateCategories = ['All', 'Marketing', 'Sales', 'Customer Support', 'Finance', 'HR'] as const;

export type FlowType = 'Sequential' | 'Hierarchical' | 'Event-driven' | 'Complex Flow' | 'Parallel';

export interface TemplatePreview {
  title: string;
  description: string;
  category: Exclude<(typeof templateCategories)[number], 'All'>;
  agents: number;
  flowType: FlowType;
  rating: number;
  uses: string;
}

export const templates: TemplatePreview[] = [
  {
    title: 'Content Marketing Pipeline',
    description: 'Research a topic, draft an SEO-ready article, edit it and prepare social posts.',
    category: 'Marketing',
    agents: 4,
    flowType: 'Sequential',
    rating: 4.9,
    uses: '12.4k',
  },
  {
    title: 'Lead Qualification Crew',
    description: 'A manager agent scores inbound leads, enriches them and routes hot ones to sales.',
    category: 'Sales',
    agents: 3,
    flowType: 'Hierarchical',
    rating: 4.8,
    uses: '8.7k',
  },
  {
    title: 'Support Ticket Triage',
    description: 'Classify incoming tickets, draft replies and escalate urgent issues the moment they land.',
    category: 'Customer Support',
    agents: 3,
    flowType: 'Event-driven',
    rating: 4.9,
    uses: '15.2k',
  },
  {
    title: 'Month-end Financial Report',
    description: 'Reconcile transactions, flag anomalies and assemble a management report with commentary.',
    category: 'Finance',
    agents: 5,
    flowType: 'Complex Flow',
    rating: 4.7,
    uses: '5.3k',
  },
  {
    title: 'Candidate Screening',
    description: 'Screen CVs against the role in parallel and produce a ranked shortlist with notes.',
    category: 'HR',
    agents: 3,
    flowType: 'Parallel',
    rating: 4.8,
    uses: '6.1k',
  },
  {
    title: 'Competitive Intelligence',
    description: 'Monitor competitor sites and news in parallel and summarize what changed this week.',
    category: 'Marketing',
    agents: 4,
    flowType: 'Parallel',
    rating: 4.6,
    uses: '4.9k',
  },
];

export type PlanId = 'starter' | 'professional' | 'enterprise';

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
    name: 'Starter',
    price: 19,
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
    name: 'Professional',
    price: 49,
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
    name: 'Enterprise',
    price: 149,
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
    answer: 'Yes. Annual plans are 20% off compared with paying month to month.',
  },
  {
    question: 'Which payment methods do you accept?',
    answer: 'We accept all major credit and debit cards as well as PayPal.',
  },
  {
    question: 'Can we pay by invoice?',
    answer: 'Yes. Invoice billing is available for Enterprise customers.',
  },
  {
    question: 'Is there a free plan?',
    answer:
      'Yes. The free plan includes 3 agents and 100 monthly executions, so you can try Crewline with a real workflow before you upgrade.',
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

export interface FooterColumn {
  title: string;
  links: string[];
}

export const footerColumns: FooterColumn[] = [
  { title: 'Product', links: ['Features', 'Templates', 'Integrations', 'Pricing', 'Changelog'] },
  { title: 'Company', links: ['About', 'Careers', 'Blog', 'Contact'] },
  { title: 'Resources', links: ['Documentation', 'API Reference', 'Community', 'Status'] },
];
