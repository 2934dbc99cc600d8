import { workflowMessages as m } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { createAgentNode, createKindNode } from './builder-nodes';
import { expressionError, nodeDisplayName, nodeErrors } from './node-messages';

describe('the validation’s messages at their node and field', () => {
  const messages = [
    m.badExpression('Route', 'nodes.x.data', 'nodes.x is not upstream'),
    m.badExpression('Route', '"Billing"', 'is empty'),
    m.elseRequired('Route'),
    m.noBranches('Other'),
  ];

  it('names nodes as the engine does: the label, else the kind (an agent step by its agent)', () => {
    const condition = createKindNode('condition', { x: 0, y: 0 }, { id: 'c' });
    expect(nodeDisplayName(condition)).toBe('Condition');
    expect(nodeDisplayName({ ...condition, data: { ...condition.data, label: ' Route ' } })).toBe('Route');
    const agent = createAgentNode(
      { id: 'a', name: 'Writer', role: 'r' },
      { x: 0, y: 0 },
      { id: 'n', color: '' },
    );
    expect(nodeDisplayName({ ...agent, data: { ...agent.data, label: '' } })).toBe('Writer');
  });

  it('finds an expression’s reason by the node and the expression as quoted', () => {
    expect(expressionError(messages, 'Route', 'nodes.x.data')).toBe('nodes.x is not upstream');
    expect(expressionError(messages, 'Route', '"Billing"')).toBe('is empty');
    // Edited since: the old message no longer speaks of it.
    expect(expressionError(messages, 'Route', 'nodes.x.data.y')).toBeNull();
    expect(expressionError(messages, 'Other', 'nodes.x.data')).toBeNull();
  });

  it('keeps for the node the messages about it as a whole, not its expressions’', () => {
    expect(nodeErrors(messages, 'Route')).toEqual(['Condition "Route" needs an else path']);
    expect(nodeErrors(messages, 'Nobody')).toEqual([]);
  });
});
