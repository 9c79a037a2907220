/**
 * Which videos get a playback copy and what the copy is: a copy for whatever some family
 * browser may not play, the stream that already plays everywhere kept as it is, at most 1080p
 * and upright; and the original described with its codecs, so each browser can say itself
 * whether it plays it. Read from ffprobe, or from ffmpeg's own summary where there is no ffprobe.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { copySize, judge, originalType } from '../../src/media/playback-rules.ts';
import { copyArguments } from '../../src/media/transcode.ts';
import { fromFfprobe, fromSummary, type AudioStream, type VideoProbe, type VideoStream } from '../../src/media/video-probe.ts';
import type { VideoInput } from '../../src/media/video-input.ts';

const IN: VideoInput = { file: '/in.mov', demuxer: 'mov' };

const MP4 = 'mov,mp4,m4a,3gp,3g2,mj2';

function video(fields: Partial<VideoStream> = {}): VideoStream {
  return {
    codec: 'h264',
    profile: 'High',
    level: 40,
    tag: 'avc1',
    pixelFormat: 'yuv420p',
    width: 1920,
    height: 1080,
    rotation: 0,
    framesPerSecond: 30,
    bitRate: 8_000_000,
    colorTransfer: null,
    ...fields,
  };
}

const aac: AudioStream = { codec: 'aac', profile: 'LC', channels: 2 };

function probe(v: VideoStream | null, a: AudioStream | null = aac, container = MP4): VideoProbe {
  return { container, durationSeconds: 10, video: v, audio: a };
}

describe('which videos need a copy', () => {
  test('H.264 (Baseline to High, 8-bit 4:2:0) with AAC or MP3 in an MP4 or a .mov plays everywhere: no copy', () => {
    for (const profile of ['Constrained Baseline', 'Baseline', 'Main', 'High']) {
      assert.equal(judge(probe(video({ profile }))).needed, false, profile);
    }
    assert.equal(judge(probe(video(), { codec: 'mp3', profile: null, channels: 2 })).needed, false);
    assert.equal(judge(probe(video(), null)).needed, false, 'a silent video');
    assert.equal(judge(probe(video({ pixelFormat: 'yuvj420p' }))).needed, false, 'full-range 4:2:0 from older phones');
  });

  test("an iPhone's HEVC gets a copy: the picture made again, the AAC sound kept as it is", () => {
    const verdict = judge(probe(video({ codec: 'hevc', profile: 'Main', tag: 'hvc1', level: 120 })));
    assert.deepEqual(verdict, {
      needed: true,
      why: 'not every browser plays hevc (Main) yuv420p',
      plan: { video: 'encode', audio: 'copy', hdr: false },
    });
  });

  test('an HDR iPhone video (HEVC Main 10, HLG) is tone-mapped to SDR in its copy', () => {
    const verdict = judge(probe(video({ codec: 'hevc', profile: 'Main 10', pixelFormat: 'yuv420p10le', colorTransfer: 'arib-std-b67' })));
    assert.ok(verdict.needed);
    assert.equal(verdict.plan.hdr, true);
    assert.ok(judge(probe(video({ codec: 'hevc', pixelFormat: 'yuv420p10le', colorTransfer: 'smpte2084' }))).needed, 'PQ');
  });

  test('H.264 that most browsers refuse (10-bit, 4:2:2) is made again; sound they refuse (PCM, AC-3, Opus) is, the picture kept', () => {
    for (const v of [video({ profile: 'High 10', pixelFormat: 'yuv420p10le' }), video({ profile: 'High 4:2:2', pixelFormat: 'yuv422p' })]) {
      const verdict = judge(probe(v));
      assert.ok(verdict.needed);
      assert.equal(verdict.plan.video, 'encode', v.profile!);
    }
    for (const codec of ['pcm_s16le', 'ac3', 'opus', 'vorbis', 'alac']) {
      const verdict = judge(probe(video(), { codec, profile: null, channels: 2 }));
      assert.ok(verdict.needed, codec);
      assert.deepEqual(verdict.plan, { video: 'copy', audio: 'encode', hdr: false }, codec);
    }
    const eld = judge(probe(video(), { codec: 'aac', profile: 'ELD', channels: 1 }));
    assert.ok(eld.needed && eld.plan.audio === 'encode', 'AAC-ELD');
  });

  test('H.264 and AAC in another file (MKV, a camcorder .mts) only changes file: both streams kept', () => {
    for (const container of ['matroska,webm', 'mpegts', 'avi']) {
      const verdict = judge(probe(video(), aac, container));
      assert.ok(verdict.needed, container);
      assert.deepEqual(verdict.plan, { video: 'copy', audio: 'copy', hdr: false });
    }
  });

  test('VP9 and AV1 (not on older iPhones), ProRes, MPEG-4 Part 2 and MJPEG (on none) get a copy', () => {
    for (const codec of ['vp9', 'av1', 'prores', 'mpeg4', 'mjpeg', 'wmv3', 'mpeg2video']) {
      const verdict = judge(probe(video({ codec, profile: null }), aac, codec === 'vp9' ? 'matroska,webm' : MP4));
      assert.ok(verdict.needed && verdict.plan.video === 'encode', codec);
    }
  });

  test('a file with no picture (sound alone, a cover image) needs none', () => {
    assert.equal(judge(probe(null)).needed, false);
  });
});

describe("the original's type for canPlayType", () => {
  test('H.264 as avc1 with its profile and level, AAC-LC as mp4a.40.2, a .mov asked as video/mp4', () => {
    assert.equal(originalType(probe(video({ profile: 'High', level: 40 }))), 'video/mp4; codecs="avc1.640028, mp4a.40.2"');
    assert.equal(originalType(probe(video({ profile: 'Constrained Baseline', level: 30 }), null)), 'video/mp4; codecs="avc1.42E01E"');
    assert.equal(
      originalType(probe(video({ profile: 'Main', level: 31 }), { codec: 'mp3', profile: null, channels: 2 })),
      'video/mp4; codecs="avc1.4D401F, mp4a.6B"',
    );
  });

  test('HEVC as hvc1 (or hev1, which Safari refuses) with its profile and level: Main, Main 10', () => {
    assert.equal(
      originalType(probe(video({ codec: 'hevc', profile: 'Main', tag: 'hvc1', level: 93 }))),
      'video/mp4; codecs="hvc1.1.6.L93.B0, mp4a.40.2"',
    );
    assert.equal(
      originalType(probe(video({ codec: 'hevc', profile: 'Main 10', tag: 'hvc1', level: 153 }), null)),
      'video/mp4; codecs="hvc1.2.4.L153.B0"',
    );
    assert.equal(
      originalType(probe(video({ codec: 'hevc', profile: 'Main', tag: 'hev1', level: 120 }), null)),
      'video/mp4; codecs="hev1.1.6.L120.B0"',
    );
  });

  test('WebM as video/webm with VP9 and Opus; ProRes or PCM sound have no name: null, the copy is played', () => {
    assert.equal(
      originalType(probe(video({ codec: 'vp9', profile: 'Profile 0' }), { codec: 'opus', profile: null, channels: 2 }, 'matroska,webm')),
      'video/webm; codecs="vp09.00.41.08, opus"',
    );
    assert.equal(originalType(probe(video({ codec: 'prores', profile: 'HQ' }))), null);
    assert.equal(originalType(probe(video(), { codec: 'pcm_s16le', profile: null, channels: 2 })), null);
    assert.equal(originalType(probe(video(), aac, 'avi')), null);
  });
});

describe("the copy's size", () => {
  test('at most 1080p, in either orientation, with even sides, never enlarged', () => {
    assert.deepEqual(copySize({ width: 3840, height: 2160, rotation: 0 }), { width: 1920, height: 1080 });
    assert.deepEqual(copySize({ width: 2160, height: 3840, rotation: 0 }), { width: 1080, height: 1920 });
    assert.deepEqual(copySize({ width: 2880, height: 2160, rotation: 0 }), { width: 1440, height: 1080 });
    assert.deepEqual(copySize({ width: 320, height: 240, rotation: 0 }), { width: 320, height: 240 });
    assert.deepEqual(copySize({ width: 1001, height: 563, rotation: 0 }), { width: 1002, height: 564 });
  });

  test('a phone held upright (stored sideways, turned by its display matrix) is sized upright: ffmpeg turns it as it encodes', () => {
    assert.deepEqual(copySize({ width: 3840, height: 2160, rotation: 90 }), { width: 1080, height: 1920 });
    assert.deepEqual(copySize({ width: 3840, height: 2160, rotation: -90 }), { width: 1080, height: 1920 });
    assert.deepEqual(copySize({ width: 1920, height: 1080, rotation: 180 }), { width: 1920, height: 1080 });
  });
});

describe("ffmpeg's arguments", () => {
  test('HEVC: libx264 veryfast CRF 23 High, scaled, 4:2:0; the AAC copied; +faststart; first video and audio only', () => {
    const v = video({ codec: 'hevc', width: 3840, height: 2160, rotation: 90 });
    const args = copyArguments(IN, '/out.mp4', probe(v), { video: 'encode', audio: 'copy', hdr: false }, { tonemap: true }).join(' ');
    assert.match(args, /-map 0:v:0 -map 0:a:0 -sn -dn/);
    assert.match(args, /-vf scale=1080:1920,format=yuv420p -c:v libx264 -preset veryfast -crf 23 -profile:v high/);
    assert.match(args, /-c:a copy/);
    assert.match(args, /-movflags \+faststart -f mp4 -y \/out\.mp4$/);
  });

  test('HDR is tone-mapped through zscale (and plainly scaled on a try without it); 5.1 sound is made stereo AAC', () => {
    const v = video({ codec: 'hevc', profile: 'Main 10', pixelFormat: 'yuv420p10le', colorTransfer: 'arib-std-b67' });
    const surround = { codec: 'pcm_s24le', profile: null, channels: 6 };
    const plan = { video: 'encode', audio: 'encode', hdr: true } as const;
    const mapped = copyArguments(IN, '/out.mp4', probe(v, surround), plan, { tonemap: true }).join(' ');
    assert.match(
      mapped,
      /zscale=w=1920:h=1080:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p/,
    );
    assert.match(mapped, /-c:a aac -b:a 160k -ac 2/);
    const plain = copyArguments(IN, '/out.mp4', probe(v, surround), plan, { tonemap: false }).join(' ');
    assert.doesNotMatch(plain, /tonemap/);
    assert.match(plain, /-vf scale=1920:1080,format=yuv420p/);
  });

  test('a remux copies both streams; a silent video maps no sound', () => {
    const remux = copyArguments(
      { file: '/in.mkv', demuxer: 'matroska' },
      '/out.mp4',
      probe(video(), aac, 'matroska,webm'),
      { video: 'copy', audio: 'copy', hdr: false },
      { tonemap: true },
    );
    assert.ok(remux.join(' ').includes('-c:v copy') && remux.join(' ').includes('-c:a copy'));
    assert.ok(!remux.includes('-vf'));
    const silent = copyArguments(
      IN,
      '/out.mp4',
      probe(video({ codec: 'hevc' }), null),
      { video: 'encode', audio: 'none', hdr: false },
      { tonemap: true },
    );
    assert.ok(!silent.includes('0:a:0') && !silent.includes('-c:a'));
  });

  test('a copy for owners with a quota stops at the room it leaves (-fs); without a quota it has no limit', () => {
    const plan = { video: 'encode', audio: 'copy', hdr: false } as const;
    const capped = copyArguments(IN, '/out.mp4', probe(video({ codec: 'hevc' })), plan, { tonemap: true, maxBytes: 1234.5 });
    assert.equal(capped[capped.indexOf('-fs') + 1], '1234');
    assert.ok(capped.indexOf('-fs') < capped.indexOf('/out.mp4'), 'an output option, before the output');
    assert.ok(!copyArguments(IN, '/out.mp4', probe(video({ codec: 'hevc' })), plan, { tonemap: true, maxBytes: null }).includes('-fs'));
  });
});

describe('reading a video', () => {
  test("ffprobe's JSON: the first real video stream (not a cover picture), the first audio, the display matrix", () => {
    const read = fromFfprobe({
      streams: [
        { codec_type: 'video', codec_name: 'mjpeg', width: 600, height: 600, disposition: { attached_pic: 1 } },
        {
          codec_type: 'video',
          codec_name: 'hevc',
          codec_tag_string: 'hvc1',
          profile: 'Main 10',
          level: 153,
          pix_fmt: 'yuv420p10le',
          width: 3840,
          height: 2160,
          avg_frame_rate: '30000/1001',
          bit_rate: '40000000',
          color_transfer: 'arib-std-b67',
          side_data_list: [{ rotation: -90 }],
        },
        { codec_type: 'audio', codec_name: 'aac', profile: 'LC', channels: 2 },
        { codec_type: 'data', codec_name: 'none' },
      ],
      format: { format_name: MP4, duration: '12.5' },
    });
    assert.equal(read.container, MP4);
    assert.equal(read.durationSeconds, 12.5);
    assert.equal(read.video?.codec, 'hevc');
    assert.equal(read.video?.level, 153);
    assert.equal(read.video?.rotation, -90);
    assert.ok(Math.abs((read.video?.framesPerSecond ?? 0) - 29.97) < 0.01);
    assert.equal(read.video?.colorTransfer, 'arib-std-b67');
    assert.deepEqual(read.audio, { codec: 'aac', profile: 'LC', channels: 2 });
  });

  test("ffmpeg 5's summary of an HDR iPhone video with 5.1 PCM sound", () => {
    const read = fromSummary(`Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '/data/files/blobs/ab/01ab':
  Metadata:
    major_brand     : qt
  Duration: 00:00:01.00, start: 0.000000, bitrate: 4306 kb/s
  Stream #0:0[0x1]: Video: hevc (Main 10) (hvc1 / 0x31637668), yuv420p10le(tv, bt2020nc/bt2020/arib-std-b67, progressive), 3840x2160 [SAR 1:1 DAR 16:9], 35 kb/s, 29.97 fps, 30 tbr, 15360 tbn (default)
    Metadata:
      handler_name    : VideoHandler
    Side data:
      displaymatrix: rotation of -90.00 degrees
  Stream #0:1[0x2]: Audio: pcm_s16le (sowt / 0x74776F73), 44100 Hz, 5.1, s16, 4233 kb/s (default)
Stream mapping:
  Stream #0:0 -> #0:0 (hevc (native) -> wrapped_avframe (native))`);
    assert.equal(read.container, MP4);
    assert.equal(read.durationSeconds, 1);
    assert.deepEqual(read.video, {
      codec: 'hevc',
      profile: 'Main 10',
      level: null,
      tag: 'hvc1',
      pixelFormat: 'yuv420p10le',
      width: 3840,
      height: 2160,
      rotation: -90,
      framesPerSecond: 29.97,
      bitRate: 35_000,
      colorTransfer: 'arib-std-b67',
    });
    assert.deepEqual(read.audio, { codec: 'pcm_s16le', profile: null, channels: 6 });
  });

  test("the older static ffmpeg's summary (rotate tag, no stream ids), a cover picture skipped, mono AAC", () => {
    const read = fromSummary(`Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'x.mov':
  Duration: 00:01:02.50, start: 0.000000, bitrate: 36 kb/s
    Stream #0:0: Video: mjpeg, yuvj420p(pc, bt470bg/unknown/unknown), 600x600, 90k tbr, 90k tbn, 90k tbc (attached pic)
    Stream #0:1(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080, 8000 kb/s, 30 fps, 30 tbr, 15360 tbn, 60 tbc (default)
    Metadata:
      rotate          : 270
    Stream #0:2(und): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, mono, fltp, 64 kb/s (default)
Output #0, null, to 'pipe:':`);
    assert.equal(read.durationSeconds, 62.5);
    assert.equal(read.video?.codec, 'h264');
    assert.equal(read.video?.profile, 'High');
    assert.equal(read.video?.rotation, 270);
    assert.equal(read.video?.colorTransfer, null);
    assert.deepEqual(read.audio, { codec: 'aac', profile: 'LC', channels: 1 });
    assert.equal(judge(read).needed, false);
  });

  test('a WebM summary: no sample entry tag, VP9 with its profile', () => {
    const read = fromSummary(`Input #0, matroska,webm, from 'clip.webm':
  Duration: 00:00:02.00, start: 0.000000, bitrate: 100 kb/s
  Stream #0:0: Video: vp9 (Profile 0), yuv420p(tv, progressive), 320x240, SAR 1:1 DAR 4:3, 10 fps, 10 tbr, 1k tbn (default)
  Stream #0:1: Audio: opus, 48000 Hz, stereo, fltp (default)`);
    assert.equal(read.container, 'matroska,webm');
    assert.equal(read.video?.tag, null);
    assert.equal(read.video?.profile, 'Profile 0');
    assert.deepEqual(read.audio, { codec: 'opus', profile: null, channels: 2 });
    assert.equal(originalType(read), 'video/webm; codecs="vp09.00.41.08, opus"');
  });
});
