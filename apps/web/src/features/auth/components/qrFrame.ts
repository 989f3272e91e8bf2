/** Sizes of the scan tab's QR frame, shared by the tab and its loading placeholder. */
export const QR_SIZE = 196;
/** the frame around a drawn QR code: the code plus 12 px padding each side */
export const QR_FRAME = { width: QR_SIZE + 24, height: QR_SIZE + 24 };
/** WeChat's QR page, framed as its own wxLogin.js frames it */
export const EMBED_WIDTH = 300;
export const EMBED_HEIGHT = 400;
