import { describe, expect, test } from 'vitest';
import { selectionWords } from '../../kits/photos/index.ts';
import { backInWords, movedOutWords } from './words.ts';

const jpeg = { type: 'file', mime_type: 'image/jpeg' };
const mp4 = { type: 'file', mime_type: 'video/mp4' };
const text = { type: 'file', mime_type: 'text/plain' };
const unknown = { type: 'file', mime_type: null };
const folder = { type: 'folder', mime_type: null };

describe('what Private says of a selection', () => {
  test('files and folders chosen with photos are called files and folders, never photos', () => {
    expect(selectionWords([text])).toBe('this file');
    expect(selectionWords([unknown])).toBe('this file');
    expect(selectionWords([folder])).toBe('this folder');
    expect(selectionWords([jpeg, jpeg, text, folder])).toBe('2 photos, 1 file and 1 folder');
    expect(selectionWords([jpeg, mp4])).toBe('1 photo and 1 video');
  });

  test('moving several out names the one folder they went back to, or says each went back where it came from', () => {
    expect(movedOutWords([jpeg, jpeg, jpeg], [], 'Holidays')).toBe('3 photos moved out of Private, back to Holidays.');
    expect(movedOutWords([jpeg, text], [], null)).toBe('1 photo and 1 file moved out of Private, back to the folders they came from.');
    expect(movedOutWords([text], [], 'My files')).toBe('This file moved out of Private, back to My files.');
  });

  test('what could not be moved is said apart, with what to do', () => {
    expect(movedOutWords([jpeg, jpeg], [jpeg], 'Holidays')).toBe(
      '2 photos moved out of Private, back to Holidays. This photo could not be moved. Check your connection and try again.',
    );
    expect(movedOutWords([], [jpeg, jpeg], null)).toBe('2 photos could not be moved out. Check your connection and try again.');
  });

  test('Undo says they are back in Private', () => {
    expect(backInWords([jpeg, jpeg, jpeg], [])).toBe('3 photos are back in Private.');
    expect(backInWords([text], [])).toBe('This file is back in Private.');
    expect(backInWords([], [jpeg])).toBe('This photo could not be put back. Check your connection and try again.');
  });
});
