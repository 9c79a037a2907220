/**
 * Files that claim to be videos and are instructions to ffmpeg to read something else: each
 * names `secret` (a video elsewhere on the PC) or `url` (an address a test server counts
 * requests on). Before ffmpeg was told its demuxer, the first of them got a poster and a
 * playback copy made from the secret.
 */
export function hostileVideos(secret: string, url: string): Record<string, Buffer> {
  const playlist = (...lines: string[]) => Buffer.from(['#EXTM3U', '#EXT-X-TARGETDURATION:10', ...lines, '#EXT-X-ENDLIST', ''].join('\n'));
  const ftyp = Buffer.from('00000018667479706973366d0000020069736f6d69736f32', 'hex');
  return {
    'HLS playlist naming a file:// video': playlist('#EXTINF:10,', `file://${secret}`),
    'HLS playlist naming a bare path': playlist('#EXTINF:10,', secret),
    'HLS playlist naming an http:// segment': playlist('#EXTINF:10,', `${url}/segment.mp4`),
    'HLS playlist with an #EXT-X-KEY URI': playlist(`#EXT-X-KEY:METHOD=AES-128,URI="${url}/key"`, '#EXTINF:10,', `file://${secret}`),
    'HLS playlist through subfile: and tee:': playlist('#EXTINF:10,', `subfile,,start,0,end,0,,:${secret}`, '#EXTINF:10,', `tee:${secret}`),
    'concat script': Buffer.from(`ffconcat version 1.0\nfile 'file:${secret}'\nfile '${url}/concat.mp4'\n`),
    'SDP description': Buffer.from(
      ['v=0', 'o=- 0 0 IN IP4 127.0.0.1', 's=x', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=video 9 RTP/AVP 96', 'a=rtpmap:96 H264/90000', ''].join(
        '\r\n',
      ),
    ),
    'HLS playlist behind an MP4 box header': Buffer.concat([ftyp, playlist('#EXTINF:10,', `file://${secret}`)]),
  };
}
