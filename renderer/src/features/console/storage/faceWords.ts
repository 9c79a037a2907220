import { formatCount, formatDuration } from '../../../ui/format.ts';
import type { FaceFinding } from './queries.ts';

/** The speed choices, slowest first, each in a parent's words: what it costs the computer, what it gives. */
export const FACE_SPEEDS: { speed: FaceFinding['speed']; label: string; hint: string }[] = [
  { speed: 'gentle', label: 'Gentle', hint: 'Uses a quarter of one processor core. The slowest, and the computer hardly notices it.' },
  { speed: 'normal', label: 'Normal', hint: 'Uses half of one processor core.' },
  { speed: 'fast', label: 'Fast', hint: 'Uses a whole processor core while nobody needs it. Done soonest.' },
];

/** "2,340 of 10,000 photos looked at". */
export function facesDoneWords(finding: FaceFinding): string {
  return `${formatCount(finding.done)} of ${formatCount(finding.total)} ${finding.total === 1 ? 'photo' : 'photos'} looked at`;
}

/** "About 50 photos a minute", or an hour when slower than one a minute; null before it is measured. */
export function faceSpeedWords(finding: FaceFinding): string | null {
  const perMinute = finding.photos_per_minute;
  if (perMinute === null || perMinute <= 0) return null;
  if (perMinute >= 1) return `About ${formatCount(Math.round(perMinute))} ${Math.round(perMinute) === 1 ? 'photo' : 'photos'} a minute`;
  const perHour = Math.max(1, Math.round(perMinute * 60));
  return `About ${formatCount(perHour)} ${perHour === 1 ? 'photo' : 'photos'} an hour`;
}

/** "About 3 h 20 min left"; null while unknown. */
export function faceTimeLeftWords(finding: FaceFinding): string | null {
  return finding.seconds_left === null ? null : `About ${formatDuration(finding.seconds_left)} left`;
}

/** The line under the bar: what it is doing now. */
export function faceStateWords(finding: FaceFinding): string {
  switch (finding.state) {
    case 'off':
      return "Face finding is turned off on this computer, in Hearth's start-up settings (FIND_FACES=0).";
    case 'paused':
      return finding.waiting > 0
        ? `Paused. ${formatCount(finding.waiting)} ${finding.waiting === 1 ? 'photo waits' : 'photos wait'} until you switch it back on.`
        : 'Paused. New photos wait until you switch it back on.';
    case 'done':
      return finding.total === 0 ? 'No photos to look at yet.' : 'Every photo has been looked at. New ones are looked at as they come.';
    case 'finding':
      return 'Looking for faces. It waits while your family uses Hearth, so they never wait for it.';
  }
}
