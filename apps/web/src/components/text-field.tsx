import type { ComponentProps, ReactNode } from 'react';
import type { ControllerRenderProps, Control, FieldPath, FieldValues } from 'react-hook-form';

import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';

type FieldProps<T extends FieldValues, TOutput> = {
  /** The form's control; `TOutput` is what its schema turns the values into. */
  control: Control<T, unknown, TOutput>;
  name: FieldPath<T>;
  label: ReactNode;
  /** Shows a red asterisk after the label; the form's schema does the checking. */
  required?: boolean;
  description?: ReactNode;
  /** Classes for the field's wrapper (label, control, message). */
  itemClassName?: string;
};

/**
 * One labelled form field bound to react-hook-form: label, control, optional description and the
 * field's error message under it.
 */
function BoundField<T extends FieldValues, TOutput>({
  control,
  name,
  label,
  required,
  description,
  itemClassName,
  children,
}: FieldProps<T, TOutput> & { children: (field: ControllerRenderProps<T, FieldPath<T>>) => ReactNode }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={itemClassName}>
          <FormLabel>
            {label}
            {required && (
              <span aria-hidden="true" className="-ml-1 text-destructive">
                *
              </span>
            )}
          </FormLabel>
          <FormControl>{children(field)}</FormControl>
          {description && <FormDescription className="text-xs">{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

type ControlProps<C extends 'input' | 'textarea'> = Omit<
  ComponentProps<C extends 'input' ? typeof Input : typeof Textarea>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'ref' | 'required'
>;

/** A labelled single-line text input bound to a form field. */
export function TextField<T extends FieldValues, TOutput = T>({
  control,
  name,
  label,
  required,
  description,
  itemClassName,
  ...input
}: FieldProps<T, TOutput> & ControlProps<'input'>) {
  return (
    <BoundField {...{ control, name, label, required, description, itemClassName }}>
      {(field) => (
        <Input aria-required={required || undefined} {...input} {...field} value={field.value ?? ''} />
      )}
    </BoundField>
  );
}

/** A labelled multi-line text input bound to a form field. */
export function TextareaField<T extends FieldValues, TOutput = T>({
  control,
  name,
  label,
  required,
  description,
  itemClassName,
  ...textarea
}: FieldProps<T, TOutput> & ControlProps<'textarea'>) {
  return (
    <BoundField {...{ control, name, label, required, description, itemClassName }}>
      {(field) => (
        <Textarea aria-required={required || undefined} {...textarea} {...field} value={field.value ?? ''} />
      )}
    </BoundField>
  );
}
