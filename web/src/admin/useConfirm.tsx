// The state behind a ConfirmDialog (what it asks about, open or not), which every admin screen with one kept by hand.
import { useState } from 'react';
import { ConfirmDialog, type ConfirmWording } from './ConfirmDialog';

const BLANK: ConfirmWording = { title: '', body: '', confirm: '', cancel: '' };

/**
 * `ask(target)` opens the dialog worded by `words(target)`; confirming runs `act(target)`. The target outlives the
 * closing so the dialog keeps its words while it fades out.
 */
export function useConfirm<T>(words: (target: T) => ConfirmWording, act: (target: T) => void) {
  const [asked, setAsked] = useState<{ target: T; open: boolean } | null>(null);
  const dialog = (
    <ConfirmDialog
      opened={asked?.open ?? false}
      {...(asked ? words(asked.target) : BLANK)}
      onConfirm={() => asked && act(asked.target)}
      onClose={() => setAsked((current) => current && { ...current, open: false })}
    />
  );
  return { ask: (target: T) => setAsked({ target, open: true }), dialog };
}
