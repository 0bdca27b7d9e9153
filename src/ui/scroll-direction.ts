/** Which way a scroll moves content into view: `down` shows content further down (the finger moves up). */
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';
