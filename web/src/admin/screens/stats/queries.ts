// The statistics screen's API calls: one GET /api/v1/admin/stats for the whole range and one per slot (hour or UTC
// day) of it, since the endpoint answers totals for a range and the charts need them slot by slot.
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/client';
import { adminApi } from '../../api';

export type StatsRange = 'day' | 'week' | 'month';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SLOTS: Record<StatsRange, { count: number; length: number }> = {
  day: { count: 24, length: HOUR },
  week: { count: 7, length: DAY },
  month: { count: 30, length: DAY },
};

/** The range's slots, oldest first, the last one ending now: whole UTC hours (last 24 h) or whole UTC days. */
export function slotsOf(range: StatsRange, now: number): Array<{ start: number; end: number }> {
  const { count, length } = SLOTS[range];
  const current = now - (now % length);
  return Array.from({ length: count }, (_, index) => {
    const start = current - (count - 1 - index) * length;
    // The server counts every hourly bucket the range touches, so a slot ends just before the next one starts.
    return { start, end: Math.min(start + length - 1, now) };
  });
}

const fetchStats = (start: number, end: number) =>
  unwrap(
    adminApi.GET('/api/v1/admin/stats', {
      params: { query: { start_date: new Date(start).toISOString(), end_date: new Date(end).toISOString() } },
    }),
  );

export type Stats = Awaited<ReturnType<typeof fetchStats>>;

export function useStats(range: StatsRange) {
  return useQuery({
    queryKey: ['admin', 'stats', range],
    queryFn: async () => {
      const now = Date.now();
      const slots = slotsOf(range, now);
      const [total, ...perSlot] = await Promise.all([
        fetchStats(slots[0]?.start ?? now, now),
        ...slots.map((slot) => fetchStats(slot.start, slot.end)),
      ]);
      return {
        total: total as Stats,
        slots: slots.map((slot, index) => ({ ...slot, stats: perSlot[index] as Stats })),
      };
    },
  });
}
