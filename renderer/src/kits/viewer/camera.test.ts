import { describe, expect, it } from 'vitest';
import { cameraName, exposureLine, megapixels, shutterSpeed } from './camera.ts';

describe('the camera in words', () => {
  it('says the make once, and drops the company words nobody says', () => {
    expect(cameraName({ make: 'Google', model: 'Pixel 8' })).toBe('Google Pixel 8');
    expect(cameraName({ make: 'Canon', model: 'Canon EOS R6' })).toBe('Canon EOS R6');
    expect(cameraName({ make: 'NIKON CORPORATION', model: 'NIKON D750' })).toBe('NIKON D750');
    expect(cameraName({ make: 'OLYMPUS IMAGING CORP.', model: 'E-M10' })).toBe('OLYMPUS E-M10');
    expect(cameraName({ make: 'Apple' })).toBe('Apple');
    expect(cameraName({ model: 'iPhone 15' })).toBe('iPhone 15');
    expect(cameraName(undefined)).toBeNull();
  });

  it('writes the exposure as photographers do', () => {
    expect(exposureLine({ f_number: 1.68, exposure_time: 1 / 120, iso: 50, focal_length: 6.9 })).toBe('f/1.7 · 1/120 s · ISO 50 · 6.9 mm');
    expect(exposureLine({ f_number: 8, exposure_time: 0.004 })).toBe('f/8 · 1/250 s');
    expect(exposureLine({ make: 'Apple' })).toBeNull();
    expect(shutterSpeed(2)).toBe('2 s');
    expect(shutterSpeed(0.5)).toBe('0.5 s');
    expect(megapixels(4000, 3000)).toBe('12 MP');
    expect(megapixels(640, 480)).toBe('0.3 MP');
    expect(megapixels(96, 64)).toBeNull();
  });
});
