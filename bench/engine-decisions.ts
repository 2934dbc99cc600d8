// Engine overhead of workflows that decide, with an instant fake model: a 200-node graph of
// conditions, branches and merges (per node: what the engine spends walking the graph, evaluating
// CEL and joining paths), and a 1,000-item map at concurrency 10 (runs per second, CPU per item).
import { runWorkflow, type RunDefinition, type RunPorts } from '@crewline/engine';

const WARMUP_MS = 300;
const MEASURE_MS = 2000;
const MIN_ITERATIONS = 10;

const agent = {
  id: 'a',
  name: 'Analyst',
  role: 'Researcher',
  goal: 'Classify and answer',
  llmProvider: 'openai',
  llmModel: 'gpt-4o',
};
const answer = {
  content: 'An answer of a few words.',
  data: { category: 'billing', score: 0.7 },
  usage: { promptTokens: 120, completionTokens: 20, totalTokens: 140 },
};

/**
 * Blocks of 7 nodes, one after the other: classify → condition (2 branches and else) → three
 * agents, one taken → merge (all) → transform. 28 blocks and Start and End: 198 nodes.
 */
function decisions(blocks: number): RunDefinition {
  const nodes: RunDefinition['nodes'] = [{ id: 'start', type: 'start' }];
  const edges: RunDefinition['edges'] = [];
  let previous = 'start';
  for (let b = 0; b < blocks; b++) {
    const id = (name: string) => `${name}${b}`;
    nodes.push(
      { id: id('classify'), type: 'agent', agentId: 'a', data: { outputSchema: { type: 'object' } } },
      {
        id: id('route'),
        type: 'condition',
        data: {
          branches: [
            { id: 'billing', label: 'Billing', when: `nodes.${id('classify')}.data.category == "billing"` },
            { id: 'high', label: 'High', when: `nodes.${id('classify')}.data.score > 0.9` },
          ],
        },
      },
      { id: id('billing'), type: 'agent', agentId: 'a' },
      { id: id('high'), type: 'agent', agentId: 'a' },
      { id: id('other'), type: 'agent', agentId: 'a' },
      { id: id('join'), type: 'merge', data: { mode: 'all' } },
      {
        id: id('count'),
        type: 'transform',
        data: { assignments: [{ name: 'blocks', value: `size(nodes.${id('join')}.data) + ${b}` }] },
      },
    );
    edges.push(
      { source: previous, target: id('classify') },
      { source: id('classify'), target: id('route') },
      { source: id('route'), target: id('billing'), sourceHandle: 'billing' },
      { source: id('route'), target: id('high'), sourceHandle: 'high' },
      { source: id('route'), target: id('other'), sourceHandle: 'else' },
      { source: id('billing'), target: id('join') },
      { source: id('high'), target: id('join') },
      { source: id('other'), target: id('join') },
      { source: id('join'), target: id('count') },
    );
    previous = id('count');
  }
  nodes.push({ id: 'end', type: 'end' });
  edges.push({ source: previous, target: 'end' });
  return { processType: 'sequential', agents: { a: agent }, nodes, edges };
}

function mapOf(items: number, concurrency: number): RunDefinition {
  return {
    processType: 'sequential',
    agents: { a: agent },
    nodes: [
      { id: 'start', type: 'start' },
      {
        id: 'each',
        type: 'map',
        data: {
          items: 'input.leads',
          run: { agentId: 'a', prompt: 'Enrich {{ item.company }}' },
          concurrency,
        },
      },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { source: 'start', target: 'each' },
      { source: 'each', target: 'end' },
    ],
  };
}

async function measure(
  def: RunDefinition,
  input: unknown,
  count: (run: Awaited<ReturnType<typeof runWorkflow>>) => number,
) {
  const ports: RunPorts = { now: () => performance.now(), callAgent: async () => answer, onEvent: () => {} };
  const once = () => runWorkflow(def, { input }, ports);
  const warmupEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmupEnd) await once();
  const runs: number[] = [];
  let units = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < MEASURE_MS || runs.length < MIN_ITERATIONS) {
    const t = performance.now();
    units = count(await once());
    runs.push(performance.now() - t);
  }
  const elapsed = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
  runs.sort((a, b) => a - b);
  return {
    iterations: runs.length,
    runsPerSecond: round((runs.length / elapsed) * 1000, 1),
    runMeanMs: round(elapsed / runs.length, 3),
    runP99Ms: round(runs[Math.min(runs.length - 1, Math.floor(runs.length * 0.99))], 3),
    units,
    meanUsPerUnit: round(((elapsed / runs.length) * 1000) / units),
    cpuUsPerUnit: round((user + system) / (runs.length * units)),
  };
}

export async function runEngineDecisions() {
  const graph = decisions(28);
  const leads = Array.from({ length: 1000 }, (_, i) => ({ company: `Company ${i}` }));
  const cases = {
    decisions_198_nodes: {
      nodes: graph.nodes.length,
      ...(await measure(graph, { topic: 'tea' }, (run) => {
        // Every node the run settled: steps that ran and steps that were skipped.
        const settled = Object.keys(run.output).length;
        if (run.output.count27?.status !== 'completed') throw new Error('the last block did not run');
        return settled;
      })),
    },
    map_1000_items_concurrency_10: {
      items: leads.length,
      ...(await measure(mapOf(1000, 10), { leads }, (run) => {
        const data = run.output.each.data as unknown[];
        if (data.length !== 1000) throw new Error(`expected 1000 items, got ${data.length}`);
        return data.length;
      })),
    },
  };
  console.log(cases);
  return {
    warmupMs: WARMUP_MS,
    measureMs: MEASURE_MS,
    cases,
    note:
      'runWorkflow with a model port that resolves at once and a no-op onEvent. decisions_198_nodes: 28 blocks of ' +
      'classify → condition (2 branches + else) → 3 agents (1 taken, 2 skipped) → merge → transform; a unit is a ' +
      'settled node (ran or skipped). map_1000_items_concurrency_10: one map over 1,000 items; a unit is an item. ' +
      'cpuUsPerUnit is the process CPU (user + system) per unit.',
  };
}
