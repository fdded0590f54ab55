import { lazy, type ComponentType } from 'react';

/**
 * The chat home (/chat index) is built in client/src/features/chat/ by its own owner: the page
 * `features/chat/pages/chat-home-page.tsx` exporting `ChatHomePage`. It is loaded through a glob
 * so this shell builds (and its tests run) from any checkout, with or without that page; without
 * it /chat shows the plain welcome state.
 */
const pages = import.meta.glob<Record<string, unknown>>('../features/chat/pages/*.tsx');
const PREFERRED = ['../features/chat/pages/chat-home-page.tsx'];

function Pending() {
  return (
    <section className="page-empty">
      <h1>Welcome to Chest Doctor AI</h1>
      <p>Click &apos;New Chat&apos; in the sidebar to start an analysis.</p>
    </section>
  );
}

function pickComponent(mod: Record<string, unknown>): ComponentType {
  const candidate = mod.ChatHomePage ?? mod.default ?? Object.values(mod).find((v) => typeof v === 'function');
  return typeof candidate === 'function' ? (candidate as ComponentType) : Pending;
}

export const ChatHome = lazy(async () => {
  const key = PREFERRED.find((k) => k in pages) ?? Object.keys(pages)[0];
  const load = key ? pages[key] : undefined;
  return { default: load ? pickComponent(await load()) : Pending };
});
