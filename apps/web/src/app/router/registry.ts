/**
 * The page registry: every feature exports `pages` from src/features/<feature>/routes.tsx,
 * mapping a route name of the route table (packages/domain/src/routes/table.ts) to a lazy
 * page component. A route name no feature provides renders the "not available yet" page.
 *
 * Only the login page's feature is registered here. The other features register when the
 * chunk of the pages after login loads (../signedIn.tsx), before any route after login is
 * built: their lazy imports (one file name each) then travel in that chunk, not in the one
 * the login page waits for, so a new page costs the login page nothing.
 */
import type { ComponentType, LazyExoticComponent } from 'react';

export type PageComponent = LazyExoticComponent<ComponentType> | ComponentType;
export type PageMap = Record<string, PageComponent>;

export interface FeatureRoutesModule {
  pages?: PageMap;
}

const registry = new Map<string, PageComponent>();

/** Adds the pages of features' routes modules (by file name, as import.meta.glob gives them). */
export function registerPages(modules: Record<string, FeatureRoutesModule>): void {
  for (const [file, module] of Object.entries(modules)) {
    for (const [name, page] of Object.entries(module.pages ?? {})) {
      const known = registry.get(name);
      if (known && known !== page && import.meta.env.DEV) {
        console.warn(`route name ${name} has pages in two features (${file})`);
      }
      registry.set(name, page);
    }
  }
}

registerPages(import.meta.glob<FeatureRoutesModule>('../../features/auth/routes.tsx', { eager: true }));

export function pageFor(name: string | undefined): PageComponent | undefined {
  return name ? registry.get(name) : undefined;
}
