// Reordering a list by dragging a handle (pointer events: mouse, pen and touch alike, scrolling the page near its
// edges) or by keyboard (Space picks up, arrow keys move, Space drops, Escape cancels), each step put into words.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FocusEvent, KeyboardEvent, PointerEvent } from 'react';

export interface Step {
  kind: 'picked' | 'moved' | 'dropped' | 'cancelled';
  id: string;
  /** 1-based. */
  position: number;
  total: number;
}

interface Drag {
  id: string;
  mode: 'keyboard' | 'pointer';
  /** The order before the drag, restored by a cancel. */
  start: string[];
}

const moveTo = (ids: string[], id: string, index: number): string[] => {
  const rest = ids.filter((other) => other !== id);
  return [...rest.slice(0, index), id, ...rest.slice(index)];
};

/** How close to the window's top or bottom (px) a dragging pointer scrolls the page, and by how much per frame. */
const EDGE = 64;
const SCROLL_STEP = 16;

/**
 * `ids` is the saved order; the answer's `order` is what to show (the draft while dragging or saving). `onDrop` gets
 * the new order and settles when it is saved or failed (it shows its own error); the draft shows until then.
 * `announce` receives every step of a keyboard move, and the pick-up and drop of a pointer one.
 */
export function useReorder(
  ids: string[],
  onDrop: (order: string[]) => Promise<unknown>,
  announce: (step: Step) => void,
) {
  const [draft, setDraft] = useState<string[] | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const rows = useRef(new Map<string, HTMLElement>());
  const handles = useRef(new Map<string, HTMLElement>());
  const pointerY = useRef(0);
  const frame = useRef<number | null>(null);
  const order = draft ?? ids;

  const stopScrolling = () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = null;
  };
  useEffect(() => stopScrolling, []);

  // React moves list items by re-inserting DOM nodes, which drops the focus; keep it on the handle being moved.
  useLayoutEffect(() => {
    if (drag?.mode === 'keyboard') handles.current.get(drag.id)?.focus();
  }, [drag, draft]);

  const step = (kind: Step['kind'], id: string, list: string[]) =>
    announce({ kind, id, position: list.indexOf(id) + 1, total: list.length });

  function pick(id: string, mode: Drag['mode']) {
    setDrag({ id, mode, start: order });
    setDraft(order);
    step('picked', id, order);
  }

  function cancel() {
    if (!drag) return;
    stopScrolling();
    setDraft(null);
    setDrag(null);
    step('cancelled', drag.id, drag.start);
  }

  function drop() {
    if (!drag) return;
    stopScrolling();
    setDrag(null);
    step('dropped', drag.id, order);
    if (order.join() === drag.start.join()) {
      setDraft(null);
      return;
    }
    const saved = order;
    const settled = () => setDraft((current) => (current === saved ? null : current));
    onDrop(saved).then(settled, settled);
  }

  function move(id: string, index: number) {
    const next = moveTo(order, id, Math.max(0, Math.min(order.length - 1, index)));
    if (next.join() === order.join()) return;
    setDraft(next);
    step('moved', id, next);
  }

  function onKeyDown(id: string, event: KeyboardEvent) {
    const key = event.key;
    if (drag?.id !== id || drag.mode !== 'keyboard') {
      if (key === ' ' || key === 'Enter') {
        event.preventDefault();
        pick(id, 'keyboard');
      }
      return;
    }
    if (key === 'ArrowUp' || key === 'ArrowDown') {
      event.preventDefault();
      move(id, order.indexOf(id) + (key === 'ArrowUp' ? -1 : 1));
    } else if (key === ' ' || key === 'Enter') {
      event.preventDefault();
      drop();
    } else if (key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  }

  function onPointerDown(id: string, event: PointerEvent<HTMLElement>) {
    if (event.button !== 0 || drag) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    pick(id, 'pointer');
  }

  /** The dragged row goes before the first other row whose middle is below the pointer. */
  function placeAt(id: string, clientY: number) {
    setDraft((current) => {
      const list = current ?? ids;
      const others = list.filter((other) => other !== id);
      const below = others.findIndex((other) => {
        const box = rows.current.get(other)?.getBoundingClientRect();
        return box !== undefined && clientY < box.top + box.height / 2;
      });
      const next = moveTo(list, id, below === -1 ? others.length : below);
      return next.join() === list.join() ? list : next;
    });
  }

  /** While the pointer rests near the window's top or bottom, scroll a step each frame and place the row again. */
  function scrollNearEdge(id: string) {
    const y = pointerY.current;
    const direction = y < EDGE ? -1 : y > window.innerHeight - EDGE ? 1 : 0;
    if (direction === 0) {
      frame.current = null;
      return;
    }
    window.scrollBy(0, direction * SCROLL_STEP);
    placeAt(id, y);
    frame.current = requestAnimationFrame(() => scrollNearEdge(id));
  }

  // A pointer drag follows the pointer on the whole window: React may re-insert the dragged row's DOM node while it
  // moves, which releases the handle's pointer capture. Subscribed anew each render, so the handlers see this order.
  useEffect(() => {
    if (drag?.mode !== 'pointer') return;
    const follow = (event: globalThis.PointerEvent) => {
      pointerY.current = event.clientY;
      placeAt(drag.id, event.clientY);
      if (frame.current === null) scrollNearEdge(drag.id);
    };
    const finish = () => drop();
    const abort = () => cancel();
    window.addEventListener('pointermove', follow);
    window.addEventListener('pointerup', finish);
    window.addEventListener('pointercancel', abort);
    return () => {
      window.removeEventListener('pointermove', follow);
      window.removeEventListener('pointerup', finish);
      window.removeEventListener('pointercancel', abort);
    };
  });

  /** Tabbing away from a row picked up by keyboard puts it back (a blur without a new focus is React moving it). */
  function onBlur(id: string, event: FocusEvent) {
    if (drag?.id === id && drag.mode === 'keyboard' && event.relatedTarget !== null) cancel();
  }

  const register = (map: Map<string, HTMLElement>, id: string) => (element: HTMLElement | null) => {
    if (element) map.set(id, element);
    else map.delete(id);
  };

  return {
    order,
    dragging: drag?.id ?? null,
    rowRef: (id: string) => register(rows.current, id),
    handleProps: (id: string) => ({
      ref: register(handles.current, id),
      'aria-pressed': drag?.id === id,
      onKeyDown: (event: KeyboardEvent) => onKeyDown(id, event),
      onPointerDown: (event: PointerEvent<HTMLElement>) => onPointerDown(id, event),
      onBlur: (event: FocusEvent) => onBlur(id, event),
    }),
  };
}
