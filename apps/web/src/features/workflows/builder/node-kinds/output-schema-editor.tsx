// The agent step's output schema editor: a list of fields (name, type, allowed values, required,
// description) written as a JSON Schema object, or, with the JSON switch, the raw schema to paste or
// edit. Text that is not a JSON object shows why under it and is not saved.
import { Braces, ListTree } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';

import {
  emptyField,
  FIELD_TYPE_LABELS,
  FIELD_TYPES,
  fieldProblem,
  fieldsFromSchema,
  parseSchemaText,
  schemaFromFields,
  type FieldType,
  type JsonSchema,
  type SchemaField,
} from './output-schema';
import { RemoveRowButton, RowList } from './row-list';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const schemaText = (schema: unknown) => (schema === undefined ? '' : JSON.stringify(schema, null, 2));

function FieldRow({
  field,
  index,
  problem,
  onChange,
  onRemove,
}: {
  field: SchemaField;
  index: number;
  problem: string | null;
  onChange: (patch: Partial<SchemaField>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const hasEnum = field.type === 'string' || field.type === 'number' || field.type === 'integer';
  const title = field.name.trim() || `field ${index + 1}`;
  return (
    <li className="space-y-2 rounded-lg border bg-muted/30 p-2.5" aria-label={`Field ${index + 1}`}>
      <div className="grid grid-cols-[minmax(0,1fr)_7.5rem_auto] items-end gap-1.5">
        <div className="min-w-0 space-y-1.5">
          <Label htmlFor={`${id}-name`}>Field name</Label>
          <Input
            id={`${id}-name`}
            value={field.name}
            placeholder="category"
            spellCheck={false}
            className="font-mono text-xs"
            onChange={(e) => onChange({ name: e.target.value })}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-type`}>Type</Label>
          <Select value={field.type} onValueChange={(type) => onChange({ type: type as FieldType })}>
            <SelectTrigger id={`${id}-type`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {FIELD_TYPES.map((type) => (
                <SelectItem key={type} value={type}>
                  {FIELD_TYPE_LABELS[type]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <RemoveRowButton label={title} onClick={onRemove} />
      </div>
      {hasEnum && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-enum`}>Allowed values</Label>
          <Input
            id={`${id}-enum`}
            value={field.enumValues}
            placeholder={field.type === 'string' ? 'billing, technical, other' : 'Any value'}
            onChange={(e) => onChange({ enumValues: e.target.value })}
          />
        </div>
      )}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-description`}>Field description</Label>
        <Input
          id={`${id}-description`}
          value={field.description}
          placeholder="What the model should put here"
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </div>
      <div className="flex items-center gap-2">
        <Checkbox
          id={`${id}-required`}
          checked={field.required}
          onCheckedChange={(checked) => onChange({ required: checked === true })}
        />
        <Label htmlFor={`${id}-required`} className="font-normal">
          Required
        </Label>
      </div>
      {problem && <p className="text-xs text-destructive">{problem}</p>}
    </li>
  );
}

export function OutputSchemaEditor({
  schema,
  onChange,
}: {
  schema: JsonSchema | undefined;
  /** The new schema; undefined removes it. */
  onChange: (schema: JsonSchema | undefined, step: string | null) => void;
}) {
  const jsonId = useId();
  const representable = fieldsFromSchema(schema);
  // The list as typed (a field without a name yet is in no schema), the JSON text as typed (it may
  // not parse yet), and the schema they were last in step with: an undo resets them.
  const [fields, setFields] = useState<SchemaField[]>(representable ?? []);
  const [jsonMode, setJsonMode] = useState(representable === null);
  const [text, setText] = useState(() => schemaText(schema));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [synced, setSynced] = useState<unknown>(schema);
  if (!same(synced, schema)) {
    setSynced(schema);
    if (!same(schemaFromFields(fields), schema)) setFields(representable ?? []);
    const typed = parseSchemaText(text);
    if (!typed.ok || !same(typed.schema, schema)) {
      setText(schemaText(schema));
      setJsonError(null);
    }
    if (representable === null) setJsonMode(true);
  }

  const writeFields = (next: SchemaField[], step: string | null) => {
    setFields(next);
    const written = schemaFromFields(next);
    setSynced(written);
    if (!same(written, schema)) onChange(written, step);
  };

  const writeText = (next: string) => {
    setText(next);
    const parsed = parseSchemaText(next);
    if (!parsed.ok) {
      setJsonError(parsed.error);
      return;
    }
    setJsonError(null);
    setSynced(parsed.schema);
    if (!same(parsed.schema, schema)) onChange(parsed.schema, 'outputSchema:json');
  };

  const toggle = () => {
    if (jsonMode) {
      if (representable === null || jsonError) return;
      setFields(representable);
      setJsonMode(false);
    } else {
      setText(schemaText(schema));
      setJsonError(null);
      setJsonMode(true);
    }
  };
  const cannotList = jsonMode && (representable === null || jsonError !== null);

  return (
    <section className="space-y-2.5" aria-label="Output schema">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium">Output schema</h3>
        <Button
          variant="ghost"
          size="sm"
          onClick={toggle}
          disabled={cannotList}
          aria-pressed={jsonMode}
          title={cannotList ? 'This schema has parts the field list cannot show' : undefined}
        >
          {jsonMode ? <ListTree aria-hidden="true" /> : <Braces aria-hidden="true" />}
          {jsonMode ? 'Fields' : 'JSON'}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        With a schema the answer is structured data: later steps read its fields as{' '}
        <code className="font-mono">nodes.&lt;id&gt;.data.&lt;field&gt;</code>.
      </p>
      {jsonMode ? (
        <div className="space-y-1.5">
          <Label htmlFor={jsonId} className="sr-only">
            Output schema as JSON
          </Label>
          <Textarea
            id={jsonId}
            value={text}
            rows={10}
            spellCheck={false}
            placeholder='{ "type": "object", "properties": { … } }'
            aria-invalid={jsonError ? true : undefined}
            className={cn('font-mono text-xs', jsonError && 'border-destructive')}
            onChange={(e) => writeText(e.target.value)}
          />
          {jsonError && (
            <p className="text-xs break-words text-destructive" role="alert">
              {jsonError} It is not saved.
            </p>
          )}
        </div>
      ) : (
        <>
          {fields.length === 0 && (
            <p className="rounded-lg border border-dashed p-2.5 text-xs text-muted-foreground">
              No schema: the step&apos;s answer is text.
            </p>
          )}
          <RowList
            items={fields}
            stepPrefix="outputSchema"
            write={writeFields}
            newItem={emptyField}
            addLabel="Add field"
          >
            {(field, index, edit) => (
              <FieldRow field={field} index={index} problem={fieldProblem(field, fields)} {...edit} />
            )}
          </RowList>
        </>
      )}
    </section>
  );
}
