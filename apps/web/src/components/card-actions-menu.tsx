import { EllipsisVertical, Pencil, Trash } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';

/** A card's ⋮ menu: 'Edit {thing}' links to its editor, 'Delete {thing}' asks the card to confirm. */
export function CardActionsMenu({
  thing,
  editTo,
  onDelete,
  className,
  children,
}: {
  /** What the card shows, as in the menu's labels: 'Agent', 'Workflow'. */
  thing: string;
  editTo: string;
  onDelete: () => void;
  className?: string;
  /** The card's own items, between Edit and Delete (e.g. a workflow's View Runs). */
  children?: ReactNode;
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={cn('size-8', className)}
          aria-label={`${thing} actions`}
        >
          <EllipsisVertical aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-48">
        <DropdownMenuItem asChild>
          <Link to={editTo}>
            <Pencil aria-hidden="true" />
            Edit {thing}
          </Link>
        </DropdownMenuItem>
        {children}
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          <Trash aria-hidden="true" />
          Delete {thing}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
