import type { OrganizationRole } from '@crewline/contracts';

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

import { ROLE_LABELS } from '../team-permissions';

/** A role picker limited to `options` (what the viewer may give). */
export function RoleSelect({
  value,
  options,
  onChange,
  disabled,
  label,
  id,
  className,
}: {
  value: string;
  options: OrganizationRole[];
  onChange: (role: OrganizationRole) => void;
  disabled?: boolean;
  /** The accessible name ('Role of Ada Lovelace'). */
  label?: string;
  id?: string;
  className?: string;
}) {
  return (
    <Select
      value={value}
      disabled={disabled}
      onValueChange={(next) => {
        const role = options.find((option) => option === next);
        if (role) onChange(role);
      }}
    >
      <SelectTrigger id={id} aria-label={label} size="sm" className={cn('w-28', className)}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((role) => (
          <SelectItem key={role} value={role}>
            {ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
