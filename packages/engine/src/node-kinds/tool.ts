import { nodeKinds, workflowMessages as m, type EvaluatedExpression } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { checkTemplate, renderTemplate } from '../expressions';
import { nodeName } from '../step-name';
import { evaluatingIn, noModelResult } from './no-model';
import type { EngineNodeKind } from './types';

const toolData = (data: Record<string, unknown> | undefined) =>
  nodeKinds.tool.data.safeParse(data ?? {}).data ?? { toolId: undefined, arguments: {} };

/**
 * Calls one of the organization's tools directly, with arguments from templates (a value that is
 * exactly `{{ expr }}` keeps the expression's type); no model is involved. Its result is its data.
 */
export const toolKind: EngineNodeKind<'tool'> = {
  kind: 'tool',
  validate(nodes, { toolExists, scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const { toolId, arguments: args } = toolData(node.data);
      if (!toolId) errors.push(m.noTool(name));
      else if (toolExists && !toolExists(toolId)) errors.push(m.deletedTool(name));
      const scope = scopeOf(node.id);
      for (const template of Object.values(args)) {
        const reason = checkTemplate(template, scope);
        if (reason) errors.push(m.badExpression(name, template, reason));
      }
    }
    return errors;
  },
  executor: {
    async execute({ step, node, expressions }, ports) {
      const name = nodeName(node);
      const { toolId, mcpTool, arguments: templates } = toolData(node.data);
      if (!toolId) throw new WorkflowRunError(m.noTool(name));
      if (!ports.callTool)
        throw new WorkflowRunError(`Tool "${name}" cannot run here: this run has no tools`);
      const args: Record<string, unknown> = {};
      const evaluated: EvaluatedExpression[] = [];
      for (const [argument, template] of Object.entries(templates)) {
        args[argument] = evaluatingIn(`Tool "${name}"`, () => renderTemplate(template, expressions));
        evaluated.push({ name: argument, expression: template, value: args[argument] });
      }
      const result = await ports.callTool({ step, toolId, ...(mcpTool ? { mcpTool } : {}), arguments: args });
      const content = typeof result === 'string' ? result : JSON.stringify(result ?? null);
      return noModelResult('tool', result ?? null, evaluated, content);
    },
  },
};
