// Whether an element has been on screen yet: the transforms editor asks for its live preview only once it has been
// seen, not on every visit of a subscription's page (docs/dashboard.md).
import { useCallback, useState, type RefCallback } from 'react';

/** `seen` turns true the first time the element `watch` is given (as its ref) meets the viewport, and stays true. */
export function useSeen<T extends Element>(): [seen: boolean, watch: RefCallback<T>] {
  // Without IntersectionObserver there is no knowing: count the element as seen.
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  const watch = useCallback((node: T | null) => {
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      setSeen(true);
      observer.disconnect();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [seen, watch];
}
