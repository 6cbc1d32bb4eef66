/**
 * Client-side routing over the History API for the console's few pages (the server answers
 * index.html for each of them, see packages/server/src/http/console-routes.ts). Small enough that a
 * routing library would be most of the code it replaces.
 */

import { type MouseEvent, type ReactNode, useSyncExternalStore } from "react";

/** The console's pages, by path. */
export type Page =
  | { readonly name: "runs" }
  | { readonly name: "run"; readonly runId: string }
  | { readonly name: "schema" }
  | { readonly name: "executors" }
  | { readonly name: "unknown" };

const NAVIGATED = "toolhost:navigated";

function subscribe(notify: () => void): () => void {
  window.addEventListener("popstate", notify);
  window.addEventListener(NAVIGATED, notify);
  return () => {
    window.removeEventListener("popstate", notify);
    window.removeEventListener(NAVIGATED, notify);
  };
}

/** The page of `pathname`. */
export function pageOf(pathname: string): Page {
  if (pathname === "/" || pathname === "/runs") return { name: "runs" };
  if (pathname === "/schema") return { name: "schema" };
  if (pathname === "/executors") return { name: "executors" };
  const run = /^\/runs\/([^/]+)$/.exec(pathname);
  if (run?.[1] !== undefined) return { name: "run", runId: decodeURIComponent(run[1]) };
  return { name: "unknown" };
}

/** The current path, re-rendering on navigation. */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** The current query string (`?a=b`, or ""), re-rendering on navigation: pages keep their filters in it. */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

/** Goes to `path` (with its query, if any) without reloading. */
export function navigate(path: string): void {
  if (path === window.location.pathname + window.location.search) return;
  window.history.pushState(null, "", path);
  window.dispatchEvent(new Event(NAVIGATED));
  window.scrollTo(0, 0);
}

/** A link to a console page: a real `<a href>` (middle click, copy link), navigated in place. */
export function Link({
  to,
  children,
  className,
  current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} className={className} aria-current={current === true ? "page" : undefined}>
      {children}
    </a>
  );
}
