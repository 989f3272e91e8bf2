/**
 * The page registry: every feature exports `pages` from src/features/<feature>/routes.tsx,
 * mapping a route name of the route table (packages/domain/src/routes/table.ts) to a lazy
 * page component. A route name no feature provides renders the "not available yet" page.
 */
import type { ComponentType, LazyExoticComponent } from 'react';

export type PageComponent = LazyExoticComponent<ComponentType> | ComponentType;
export type PageMap = Record<string, PageComponent>;

interface FeatureRoutesModule {
  pages?: PageMap;
}

const modules = import.meta.glob<FeatureRoutesModule>('../../features/*/routes.tsx', { eager: true });

function collect(): Map<string, PageComponent> {
  const registry = new Map<string, PageComponent>();
  for (const [file, module] of Object.entries(modules)) {
    for (const [name, page] of Object.entries(module.pages ?? {})) {
      if (registry.has(name) && import.meta.env.DEV) {
        console.warn(`route name ${name} has pages in two features (${file})`);
      }
      registry.set(name, page);
    }
  }
  return registry;
}

export const PAGES: ReadonlyMap<string, PageComponent> = collect();

export function pageFor(name: string | undefined): PageComponent | undefined {
  return name ? PAGES.get(name) : undefined;
}
