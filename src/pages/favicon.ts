/**
 * The service's icon: a white page with three lines on the pages' blue. As SVG for the pages' <link rel="icon">,
 * and as a 16×16 ICO at /favicon.ico for the browsers and tools that ask there without reading a page.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path fill="#fff" d="M4 2h8v12H4z"/><path stroke="#0b57d0" d="M6 5.5h4M6 7.5h4M6 9.5h3"/></svg>`;

const SIZE = 16;
const BLUE = [0xd0, 0x57, 0x0b, 0xff]; // B, G, R, A
const WHITE = [0xff, 0xff, 0xff, 0xff];

/** The colour of the pixel at (x, y), y counted from the top: the SVG's drawing, pixel by pixel. */
function pixel(x: number, y: number): number[] {
  const onPage = x >= 4 && x <= 11 && y >= 2 && y <= 13;
  const onLine = x >= 6 && x <= (y === 9 ? 8 : 9) && (y === 5 || y === 7 || y === 9);
  return onPage && !onLine ? WHITE : BLUE;
}

/** The ICO file: its header, one directory entry, a 32-bit BMP (bottom-up rows) and its all-clear AND mask. */
function icoBytes(): Uint8Array<ArrayBuffer> {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 16 rows of 1 bit a pixel, each padded to 32 bits
  const image = 40 + pixels + mask;
  const bytes = new Uint8Array(6 + 16 + image);
  const view = new DataView(bytes.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  bytes[6] = SIZE;
  bytes[7] = SIZE;
  view.setUint16(10, 1, true); // planes
  view.setUint16(12, 32, true); // bits a pixel
  view.setUint32(14, image, true);
  view.setUint32(18, 22, true); // where the image starts
  view.setUint32(22, 40, true); // BITMAPINFOHEADER
  view.setInt32(26, SIZE, true);
  view.setInt32(30, SIZE * 2, true); // the colour rows and the mask's
  view.setUint16(34, 1, true);
  view.setUint16(36, 32, true);
  view.setUint32(42, pixels + mask, true);
  let offset = 62;
  for (let row = SIZE - 1; row >= 0; row--) {
    for (let x = 0; x < SIZE; x++) {
      bytes.set(pixel(x, row), offset);
      offset += 4;
    }
  }
  return bytes;
}

export const FAVICON_ICO = icoBytes();
