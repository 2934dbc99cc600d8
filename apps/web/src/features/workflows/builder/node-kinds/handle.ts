/** The connection handles of every node kind. */
export const handleClass =
  '!size-3 !rounded-full !border-2 !border-background !bg-muted-foreground transition-colors hover:!bg-primary';
