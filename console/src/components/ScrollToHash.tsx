import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** How long the section is kept in view while the page above it is still drawing its data. */
const FOLLOW_MS = 4000;
const USER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/**
 * A link to `page#section` scrolls there once the page has drawn the section, and keeps it there while the sections
 * above it load their data and grow (each page and its data load after the link is followed), until the reader scrolls.
 */
export function ScrollToHash() {
  const { hash, pathname } = useLocation();
  useEffect(() => {
    if (hash === '') return undefined;
    const id = decodeURIComponent(hash.slice(1));
    const until = performance.now() + FOLLOW_MS;
    let request = 0;
    let lastTop: number | undefined;
    let readerScrolled = false;
    const stop = () => {
      readerScrolled = true;
    };
    const follow = () => {
      const top = document.getElementById(id)?.getBoundingClientRect().top;
      if (top !== undefined && top !== lastTop) {
        document.getElementById(id)?.scrollIntoView();
        lastTop = document.getElementById(id)?.getBoundingClientRect().top;
      }
      if (!readerScrolled && performance.now() < until) request = requestAnimationFrame(follow);
    };
    for (const event of USER_SCROLLS) window.addEventListener(event, stop, { passive: true });
    follow();
    return () => {
      cancelAnimationFrame(request);
      for (const event of USER_SCROLLS) window.removeEventListener(event, stop);
    };
  }, [hash, pathname]);
  return null;
}
