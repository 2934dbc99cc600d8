// Engine overhead per agent step with an instant fake model (under 1 ms, docs/product-rules.md): runWorkflow
// with ports that answer at once, so all the time measured is the engine's own (planning, prompts,
// outputs, events, metrics).
import { runWorkflow, type RunDefinition, type RunPorts } from '@crewline/engine';

const BUDGET_MS = 1;
const WARMUP_MS = 300;
const MEASURE_MS = 1000;
const MIN_ITERATIONS = 20;

const CASES = [
  { name: 'sequential_10', processType: 'sequential', agents: 10 },
  { name: 'sequential_50', processType: 'sequential', agents: 50 },
  { name: 'sequential_200', processType: 'sequential', agents: 200 },
  { name: 'parallel_200', processType: 'parallel', agents: 200 },
] as const;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Start → n1 → … → nN → End (sequential) or Start → each agent → End (parallel), one agent per node. */
function definition(processType: RunDefinition['processType'], count: number): RunDefinition {
  const ids = Array.from({ length: count }, (_, i) => `n${i + 1}`);
  const agents: RunDefinition['agents'] = {};
  for (let i = 0; i < count; i++) {
    agents[`a${i}`] = {
      id: `a${i}`,
      name: `Agent ${i}`,
      role: 'Researcher',
      goal: 'Find three facts about the topic and summarise them',
      backstory: 'A careful analyst.',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    };
  }
  const chain = ['start', ...ids, 'end'];
  return {
    processType,
    agents,
    nodes: [
      { id: 'start', type: 'start', data: {} },
      ...ids.map((id, i) => ({ id, type: 'agent' as const, agentId: `a${i}`, data: {} })),
      { id: 'end', type: 'end', data: {} },
    ],
    edges:
      processType === 'parallel'
        ? ids.flatMap((id) => [
            { source: 'start', target: id },
            { source: id, target: 'end' },
          ])
        : chain.slice(1).map((target, i) => ({ source: chain[i], target })),
  };
}

async function measure(def: RunDefinition, steps: number) {
  const answer = {
    content: 'Three facts: tea is a leaf, it is brewed in water, it is drunk worldwide.',
    usage: { promptTokens: 120, completionTokens: 20, totalTokens: 140 },
  };
  // Each step's sample: from the previous model call (or the run's start) to this one; the time after
  // the last call until the run returns is added to the last step, so the samples sum to the run.
  let samples: number[] = [];
  let last = 0;
  const ports: RunPorts = {
    now: () => performance.now(),
    callAgent: async () => {
      const t = performance.now();
      samples.push(t - last);
      last = t;
      return answer;
    },
    onEvent: () => {},
  };
  const input = { input: { topic: 'tea' }, instructions: 'Keep it short', parameters: { tone: 'plain' } };

  async function once(record: number[] | undefined) {
    samples = [];
    const started = performance.now();
    last = started;
    const run = await runWorkflow(def, input, ports);
    const ended = performance.now();
    if (run.metrics.steps !== steps) throw new Error(`expected ${steps} steps, got ${run.metrics.steps}`);
    samples[samples.length - 1] += ended - last;
    record?.push(...samples);
    return ended - started;
  }

  const warmupEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmupEnd) await once(undefined);

  const perStep: number[] = [];
  const runs: number[] = [];
  const started = performance.now();
  while (performance.now() - started < MEASURE_MS || runs.length < MIN_ITERATIONS) {
    runs.push(await once(perStep));
  }
  const total = runs.reduce((a, b) => a + b, 0);
  perStep.sort((a, b) => a - b);
  runs.sort((a, b) => a - b);
  const us = (ms: number) => Math.round(ms * 1000 * 100) / 100;
  const meanUs = us(total / (runs.length * steps));
  const p99Us = us(percentile(perStep, 99));
  return {
    iterations: runs.length,
    steps: runs.length * steps,
    meanUsPerStep: meanUs,
    p50UsPerStep: us(percentile(perStep, 50)),
    p99UsPerStep: p99Us,
    maxUsPerStep: us(perStep[perStep.length - 1]),
    runMeanMs: Math.round((total / runs.length) * 1000) / 1000,
    runP99Ms: Math.round(percentile(runs, 99) * 1000) / 1000,
    /** p99 per step as a fraction of the budget (below 1 is within it). */
    p99OfBudget: Math.round((p99Us / (BUDGET_MS * 1000)) * 10_000) / 10_000,
    withinBudget: p99Us < BUDGET_MS * 1000,
  };
}

export async function runEngineOverhead() {
  const cases: Record<string, unknown> = {};
  let withinBudget = true;
  let worstP99Us = 0;
  for (const c of CASES) {
    const result = await measure(definition(c.processType, c.agents), c.agents);
    cases[c.name] = { processType: c.processType, agents: c.agents, ...result };
    withinBudget &&= result.withinBudget;
    worstP99Us = Math.max(worstP99Us, result.p99UsPerStep);
    console.log(c.name, cases[c.name]);
  }
  return {
    budgetMs: BUDGET_MS,
    withinBudget,
    worstP99UsPerStep: worstP99Us,
    warmupMs: WARMUP_MS,
    measureMs: MEASURE_MS,
    cases,
    note:
      'runWorkflow with a model port that resolves at once, now() = performance.now(), a no-op onEvent; ' +
      'a step is the time between consecutive model calls (the tail after the last call is counted in the ' +
      'last step); withinBudget compares each case’s p99 per step with the budget. Parallel runs 4 agents at once (the default).',
  };
}
