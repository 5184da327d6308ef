// "in 2 hours" for a ban's end: the largest whole unit of the time left, worded by the browser in the chosen language.
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

export function timeLeft(until: string, now: number, language: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(until) - now) / 1000));
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return format.format(Math.floor(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}
