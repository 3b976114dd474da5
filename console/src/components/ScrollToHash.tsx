import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** A link to `page#section` scrolls there once the page has drawn the section (pages load their data first). */
export function ScrollToHash() {
  const { hash, pathname } = useLocation();
  useEffect(() => {
    if (hash === '') return undefined;
    const id = decodeURIComponent(hash.slice(1));
    let frames = 0;
    let request = 0;
    const look = () => {
      const target = document.getElementById(id);
      if (target !== null) target.scrollIntoView();
      else if ((frames += 1) < 180) request = requestAnimationFrame(look);
    };
    look();
    return () => cancelAnimationFrame(request);
  }, [hash, pathname]);
  return null;
}
