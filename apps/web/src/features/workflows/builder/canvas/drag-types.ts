// What a drag from the sidebar onto the canvas carries (builder-canvas.tsx reads it on drop).

/** A palette step: its kind. */
export const PALETTE_KIND_TYPE = 'application/x-crewline-node-kind';
/** An agent of the Agents list: its id. */
export const AGENT_DRAG_TYPE = 'application/x-crewline-agent';
