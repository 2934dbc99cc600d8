// A Guardrail node's data as the canvas and the panel read it.
import { nodeKinds, type GuardrailCheck, type GuardrailModel } from '@crewline/contracts';

import type { BuilderNodeData } from '../types';

/**
 * A guardrail's target, checks and classifier model as its schema reads them (no checks when
 * malformed). Only those are read: the builder's agent fields, on every node, are not its own.
 */
export function guardrailDataOf(data: BuilderNodeData): {
  target: string;
  checks: GuardrailCheck[];
  classifier?: GuardrailModel;
} {
  const parsed = nodeKinds.guardrail.data.safeParse({
    target: data.target,
    checks: data.checks,
    classifier: data.classifier,
  }).data;
  return { target: parsed?.target ?? '', checks: parsed?.checks ?? [], classifier: parsed?.classifier };
}
