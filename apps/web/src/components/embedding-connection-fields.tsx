import type { EmbeddingProvider } from '@crewline/contracts';
import { useWatch, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

import { TextField } from '@/components/text-field';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import {
  EMBEDDING_PROVIDER_HINTS,
  EMBEDDING_PROVIDERS,
  embeddingProviderLabel,
} from '@/lib/embedding-connections';
import { cn } from '@/lib/utils';

/**
 * "Embedding connection" (OpenAI / Local / Custom) and "Embedding model", with the hint saying where
 * the chosen connection is set up: a knowledge base's and an agent memory's embeddings.
 */
export function EmbeddingConnectionFields<T extends FieldValues, TOutput>({
  control,
  providerName,
  modelName,
  disabled,
  className,
}: {
  control: Control<T, unknown, TOutput>;
  /** The field holding an EmbeddingProvider. */
  providerName: FieldPath<T>;
  modelName: FieldPath<T>;
  disabled?: boolean;
  className?: string;
}) {
  const provider = useWatch({ control, name: providerName }) as EmbeddingProvider | undefined;
  return (
    <div className={cn('grid gap-4 sm:grid-cols-[11rem_1fr]', className)}>
      <FormField
        control={control}
        name={providerName}
        render={({ field }) => (
          <FormItem>
            <FormLabel>Embedding connection</FormLabel>
            <Select value={field.value} onValueChange={field.onChange} disabled={disabled}>
              <FormControl>
                <SelectTrigger className="w-full" ref={field.ref} onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                {EMBEDDING_PROVIDERS.map((option) => (
                  <SelectItem key={option} value={option}>
                    {embeddingProviderLabel(option)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormMessage />
          </FormItem>
        )}
      />
      <TextField
        control={control}
        name={modelName}
        label="Embedding model"
        required
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
      />
      {provider && (
        <FormDescription className="text-xs sm:col-span-2">
          {EMBEDDING_PROVIDER_HINTS[provider]}
        </FormDescription>
      )}
    </div>
  );
}
