// The admin secret, kept in this tab's sessionStorage only: it signs requests here and is never sent anywhere.
import { useSyncExternalStore } from 'react';

const KEY = 'subweave.admin-secret';
const listeners = new Set<() => void>();

export function readAdminSecret(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeAdminSecret(secret: string | null): void {
  if (secret === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, secret);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAdminSecret(): string | null {
  return useSyncExternalStore(subscribe, readAdminSecret);
}
