/** An agent step as the canvas shows it: its label, else its agent's name (never the node's id). */
export const stepName = (node: { data?: Record<string, unknown> }) => {
  const text = (key: string) =>
    typeof node.data?.[key] === 'string' ? (node.data[key] as string).trim() : '';
  return text('label') || text('name') || 'Untitled';
};
