import { SecretInput } from '@/components/secret-input';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

import type { DemoFieldDef } from '../demo-tools';

/** The DOM id of a card's field, also used to focus it. */
export function demoFieldId(toolId: string, key: string): string {
  return `demo-${toolId}-${key}`;
}

/** One field of a demo card in edit mode: label, control, then its error or hint. */
export function DemoField({
  toolId,
  field,
  value,
  error,
  onChange,
}: {
  toolId: string;
  field: DemoFieldDef;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const id = demoFieldId(toolId, field.key);
  const describedBy = error ? `${id}-error` : field.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  };

  let control;
  if (field.kind === 'secret') {
    control = (
      <SecretInput {...common} value={value} placeholder={field.placeholder} onValueChange={onChange} />
    );
  } else if (field.kind === 'select') {
    control = (
      <Select value={value || undefined} onValueChange={onChange}>
        <SelectTrigger {...common} className="w-full">
          <SelectValue placeholder="Select" />
        </SelectTrigger>
        <SelectContent>
          {field.options?.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    );
  } else {
    control = (
      <Input
        {...common}
        // A number stays a text box: the browser's number box would turn "abc" into nothing, and the
        // message would then say the field is missing rather than not a number.
        type={field.kind === 'email' ? 'email' : 'text'}
        inputMode={field.kind === 'number' ? 'numeric' : undefined}
        value={value}
        placeholder={field.placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }

  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>
        {field.label}
        {!field.required && <span className="font-normal text-muted-foreground">(optional)</span>}
      </Label>
      {control}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : (
        field.hint && (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {field.hint}
          </p>
        )
      )}
    </div>
  );
}
