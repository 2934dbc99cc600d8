import { Link } from 'react-router';

import { Brand } from '@/components/brand';
import { cn } from '@/lib/utils';

/** The Crewline mark and wordmark, linking to `/`. */
export function BrandLogo({ className, onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link
      to="/"
      onClick={onClick}
      className={cn(
        'inline-flex rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none',
        className,
      )}
    >
      <Brand />
    </Link>
  );
}
