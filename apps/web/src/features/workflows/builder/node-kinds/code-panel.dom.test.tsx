import type { Agent, Workflow, WorkflowNode } from '@crewline/contracts';
import { EditorView } from '@uiw/react-codemirror';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { findCanvasNode, openBuilder, workflowFixture } from '@/testing/builder';
import { answerGet } from '@/testing/msw-server';

const code: WorkflowNode = {
  id: 'sum',
  type: 'code',
  position: { x: 300, y: 100 },
  data: {
    label: 'Sum',
    language: 'javascript',
    source: "console.log('items', input.items.length);\nreturn input.items.length;",
  },
};

/** Start → Sum (a Code step) → End, with Sum's panel open; `save` gives what Save Draft sent for it. */
async function openCodePanel(node: WorkflowNode = code) {
  const workflow: Workflow = workflowFixture({
    name: 'Code',
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
      node,
      { id: 'end', type: 'end', position: { x: 700, y: 100 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: node.id },
      { id: 'e2', source: node.id, target: 'end' },
    ],
  });
  const { container, sent, user } = await openBuilder({
    workflow,
    agents: [] as Agent[],
    handlers: [answerGet<Workflow[]>('/api/workflows', [workflow])],
  });
  const canvasNode = await findCanvasNode(container, node.id);
  fireEvent.click(canvasNode);
  const save = async () => {
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    return sent[0]!.nodes!.find((n) => n.id === node.id)!.data;
  };
  return { user, save, canvasNode };
}

describe('the Code step', () => {
  it('shows its first lines on the canvas, and its source in a JavaScript editor that saves what is typed', async () => {
    const { save, canvasNode } = await openCodePanel();
    expect(within(canvasNode).getByTestId('code-summary').textContent).toContain(
      "console.log('items', input.items.length);",
    );
    // The editor is loaded when the panel opens, named by its label, with line numbers.
    const editor = await screen.findByRole('textbox', { name: 'Code' }, { timeout: 5000 });
    expect(editor.textContent).toContain('return input.items.length;');
    expect(screen.getByTestId('code-editor').querySelector('.cm-lineNumbers')?.textContent).toContain('2');
    expect(
      screen.getByText(
        "Reads input, nodes and vars; return a JSON value. console.log lines go to the step's logs.",
      ),
    ).toBeTruthy();

    const view = EditorView.findFromDOM(editor)!;
    view.dispatch({ changes: { from: view.state.doc.length, insert: '\n// counted' } });
    await waitFor(() =>
      expect(within(canvasNode).getByTestId('code-summary').textContent).toContain('// counted'),
    );
    expect(await save()).toMatchObject({
      language: 'javascript',
      source: "console.log('items', input.items.length);\nreturn input.items.length;\n// counted",
    });
  });

  it('leaves its limits to the defaults when empty, saves whole numbers in range, and flags others', async () => {
    const { user, save } = await openCodePanel();
    const time = screen.getByLabelText('Time limit (ms)') as HTMLInputElement;
    const memory = screen.getByLabelText('Memory limit (MiB)') as HTMLInputElement;
    expect([time.value, time.placeholder]).toEqual(['', '2000']);
    expect([memory.value, memory.placeholder]).toEqual(['', '64']);

    await user.type(time, '5000');
    await user.type(memory, '512');
    expect(memory.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('A whole number from 1 to 256.')).toBeTruthy();
    // The source stays as it was while a limit is out of range.
    expect((await screen.findByRole('textbox', { name: 'Code' })).textContent).toContain('return');

    await user.clear(memory);
    await user.type(memory, '128');
    expect(memory.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('A whole number from 1 to 256.')).toBeNull();

    expect(await save()).toMatchObject({ timeoutMs: 5000, memoryMb: 128 });
  });

  it('forgets a limit that is emptied: the default holds', async () => {
    const { user, save } = await openCodePanel({ ...code, data: { ...code.data, timeoutMs: 500 } });
    const time = screen.getByLabelText('Time limit (ms)') as HTMLInputElement;
    expect(time.value).toBe('500');
    await user.clear(time);
    const data = await save();
    expect(data?.timeoutMs).toBeUndefined();
    expect(data?.source).toBe(code.data?.source);
  });

  it('says so on the canvas when it has no code yet', async () => {
    const { canvasNode } = await openCodePanel({ ...code, data: { label: 'Empty', source: '' } });
    expect(within(canvasNode).getByTestId('code-summary').textContent).toBe('No code yet');
  });
});
