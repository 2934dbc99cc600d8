import type { EvalComparison, EvalItemResult, EvalRunSummary } from '@crewline/contracts';

/** A's and b's items paired by dataset item: regressions first, then improvements, then the rest, in dataset order. */
export function compareRuns(
  a: { summary: EvalRunSummary; items: EvalItemResult[] },
  b: { summary: EvalRunSummary; items: EvalItemResult[] },
): EvalComparison {
  const side = (item: EvalItemResult | undefined) => {
    if (!item) return null;
    const { itemId: _id, input: _input, expected: _expected, ...rest } = item;
    return rest;
  };
  const byId = (items: EvalItemResult[]) => new Map(items.map((item) => [item.itemId, item]));
  const inA = byId(a.items);
  const inB = byId(b.items);
  const ids = [...new Set([...a.items.map((item) => item.itemId), ...b.items.map((item) => item.itemId)])];
  const pairs = ids.map((itemId) => {
    const left = inA.get(itemId);
    const right = inB.get(itemId);
    const regressed = left?.passed === true && right?.passed === false;
    const improved = left?.passed === false && right?.passed === true;
    const scoreDelta = left?.score != null && right?.score != null ? right.score - left.score : null;
    const either = (left ?? right)!;
    return {
      itemId,
      input: either.input,
      expected: either.expected,
      a: side(left),
      b: side(right),
      regressed,
      improved,
      scoreDelta,
    };
  });
  const rank = (pair: (typeof pairs)[number]) => (pair.regressed ? 0 : pair.improved ? 1 : 2);
  const order = new Map(ids.map((id, index) => [id, index]));
  pairs.sort((x, y) => rank(x) - rank(y) || order.get(x.itemId)! - order.get(y.itemId)!);
  const delta = (x: number | null, y: number | null) => (x === null || y === null ? null : y - x);
  return {
    a: a.summary,
    b: b.summary,
    items: pairs,
    totals: {
      regressions: pairs.filter((pair) => pair.regressed).length,
      improvements: pairs.filter((pair) => pair.improved).length,
      passRateDelta: delta(a.summary.passRate, b.summary.passRate),
      costUsdDelta: b.summary.costUsd - a.summary.costUsd,
      p50Delta: delta(a.summary.latencyMs.p50, b.summary.latencyMs.p50),
    },
  };
}
