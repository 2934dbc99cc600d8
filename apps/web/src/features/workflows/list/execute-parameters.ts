// Pure rules of starting and stopping runs (docs/product-rules.md): the Execute dialog's parameters,
// and the toasts of a run started, refused, cancelled or not cancelled.
/* ----------------------------------------------------------------------------------------------
 * Execute dialog: parameters
 * -------------------------------------------------------------------------------------------- */

/** One row of the parameters editor. `id` is stable across renames (a React key). */
export interface ParameterRow {
  id: number;
  name: string;
  value: string;
}

/** The server accepts parameter names of 1 to 100 characters (after trimming). */
const PARAMETER_NAME_MAX = 100;

export const PARAMETER_NAME_REQUIRED = 'Enter a parameter name';
export const PARAMETER_NAME_DUPLICATE = 'Another parameter already has this name';
export const PARAMETER_NAME_TOO_LONG = `Parameter names are at most ${PARAMETER_NAME_MAX} characters`;

/**
 * The auto-generated name of a new parameter: param_N, N counting on from the number of parameters
 * and skipping names already taken (after param_1 is removed from param_1, param_2 the next is param_3).
 */
export function nextParameterName(names: readonly string[]): string {
  const taken = new Set(names.map((name) => name.trim()));
  let n = names.length + 1;
  while (taken.has(`param_${n}`)) n += 1;
  return `param_${n}`;
}

/** 'Add Parameter': a new param_N row with an empty value at the end. */
export function addParameter(rows: readonly ParameterRow[]): ParameterRow[] {
  const id = rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;
  return [...rows, { id, name: nextParameterName(rows.map((row) => row.name)), value: '' }];
}

/** Renaming replaces the row's key in place: the order and the value stay. */
export function renameParameter(rows: readonly ParameterRow[], id: number, name: string): ParameterRow[] {
  return rows.map((row) => (row.id === id ? { ...row, name } : row));
}

export function setParameterValue(rows: readonly ParameterRow[], id: number, value: string): ParameterRow[] {
  return rows.map((row) => (row.id === id ? { ...row, value } : row));
}

export function removeParameter(rows: readonly ParameterRow[], id: number): ParameterRow[] {
  return rows.filter((row) => row.id !== id);
}

/** The inline message of each row whose name cannot be sent (empty, too long, or taken by an earlier row). */
export function parameterErrors(rows: readonly ParameterRow[]): Record<number, string> {
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) errors[row.id] = PARAMETER_NAME_REQUIRED;
    else if (name.length > PARAMETER_NAME_MAX) errors[row.id] = PARAMETER_NAME_TOO_LONG;
    else if (seen.has(name)) errors[row.id] = PARAMETER_NAME_DUPLICATE;
    seen.add(name);
  }
  return errors;
}

/** The parameters map in the rows' order, keyed by trimmed names. */
export function buildParameters(rows: readonly ParameterRow[]): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name && !(name in parameters)) parameters[name] = row.value;
  }
  return parameters;
}

/** The body of POST /api/workflows/:id/execute (docs/product-rules.md: input defaults to an empty map). */
export function buildExecuteRequest(instructions: string, rows: readonly ParameterRow[]) {
  const trimmed = instructions.trim();
  return { input: {}, dynamicInstructions: trimmed ? trimmed : null, parameters: buildParameters(rows) };
}

/** '1 parameter', '3 parameters'. */
export function parameterCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'parameter' : 'parameters'}`;
}

/* ----------------------------------------------------------------------------------------------
 * Toasts (docs/product-rules.md)
 * -------------------------------------------------------------------------------------------- */

/** 'with custom instructions' only when the run was given some (blank ones are not sent as such). */
export function executionStartedToast(name: string, customInstructions?: string | null) {
  const started = `"${name}" execution has been started`;
  return {
    title: 'Workflow Started',
    description: customInstructions?.trim() ? `${started} with custom instructions` : started,
  };
}

const EXECUTION_FAILED_DESCRIPTION = 'Failed to start workflow execution';

/** The fixed text, followed by the server's reason when it gave one (a draft, a paused workflow). */
export function executionFailedToast(serverMessage?: string | null) {
  return {
    variant: 'destructive',
    title: 'Execution Failed',
    description: serverMessage
      ? `${EXECUTION_FAILED_DESCRIPTION}: ${serverMessage}`
      : EXECUTION_FAILED_DESCRIPTION,
  } as const;
}
