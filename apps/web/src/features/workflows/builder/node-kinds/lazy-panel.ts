// A kind's Properties panel part, loaded when a node of that kind is first selected: the panels and
// their expression fields (the engine's CEL parser) are not part of the canvas's first download
// (scripts/bundle-size.ts). The Properties tab draws them inside a Suspense boundary.
import { lazy, type ComponentType } from 'react';

import type { NodePanelProps } from './types';

export function lazyPanel<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType<NodePanelProps>,
): ComponentType<NodePanelProps> {
  return lazy(async () => ({ default: pick(await load()) }));
}
