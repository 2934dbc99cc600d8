import { Link } from 'react-router';

import { Brand } from '@/components/brand';

/** The Crewline mark and wordmark, linking to `/`. */
export function BrandLogo({ onClick }: { onClick?: () => void }) {
  return (
    <Link
      to="/"
      onClick={onClick}
      className="inline-flex rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none"
    >
      <Brand />
    </Link>
  );
}
