// ua-parser-js 1.x (MIT) ships no types; this is the part Hearth reads.
declare module 'ua-parser-js' {
  interface UAResult {
    browser: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { vendor?: string; model?: string; type?: string };
  }
  class UAParser {
    constructor(userAgent?: string);
    getResult(): UAResult;
  }
  export default UAParser;
}
