import type { ComponentProps, ReactNode } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';

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

type TextFieldProps<T extends FieldValues, TOutput> = {
  /** The form's control; `TOutput` is what its schema turns the values into. */
  control: Control<T, unknown, TOutput>;
  name: FieldPath<T>;
  label: ReactNode;
  /** Shows a red asterisk after the label; the form's schema does the checking. */
  required?: boolean;
  description?: ReactNode;
  /** Makes it a multi-line text area of this many rows. */
  rows?: number;
  /** Classes for the field's wrapper (label, control, message). */
  itemClassName?: string;
} & Omit<ComponentProps<'input'>, 'name' | 'value' | 'onChange' | 'onBlur' | 'ref' | 'required'>;

/**
 * A labelled text input bound to a react-hook-form field, with its description and error message
 * under it; a text area when `rows` is given. Other props go to the input.
 */
export function TextField<T extends FieldValues, TOutput = T>({
  control,
  name,
  label,
  required,
  description,
  rows,
  itemClassName,
  ...input
}: TextFieldProps<T, TOutput>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => {
        // An optional field may hold undefined or null: the input stays controlled with ''.
        const props = { 'aria-required': required || undefined, ...field, value: field.value ?? '' };
        return (
          <FormItem className={itemClassName}>
            <FormLabel>
              {label}
              {required && (
                <span aria-hidden="true" className="-ml-1 text-destructive">
                  *
                </span>
              )}
            </FormLabel>
            <FormControl>
              {rows ? (
                <Textarea rows={rows} {...(input as ComponentProps<'textarea'>)} {...props} />
              ) : (
                <Input {...input} {...props} />
              )}
            </FormControl>
            {description && <FormDescription className="text-xs">{description}</FormDescription>}
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}
