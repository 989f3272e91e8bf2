/**
 * Form upload elements may ask for a crop (centred square) and a maximum width/height: the
 * picture is redrawn on a canvas before it leaves the browser, so the server stores what
 * the form's author asked for. Pictures already within bounds go out untouched.
 */
export interface ImageShape {
  crop?: boolean;
  maxWidth?: number;
  maxHeight?: number;
}

function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('image'));
    };
    image.src = url;
  });
}

export async function shapeImage(file: File, shape: ImageShape): Promise<File> {
  if (!shape.crop && !shape.maxWidth && !shape.maxHeight) return file;
  const image = await loadImage(file);
  let sx = 0;
  let sy = 0;
  let sw = image.naturalWidth;
  let sh = image.naturalHeight;
  if (shape.crop) {
    const side = Math.min(sw, sh);
    sx = Math.floor((sw - side) / 2);
    sy = Math.floor((sh - side) / 2);
    sw = side;
    sh = side;
  }
  const scale = Math.min(
    1,
    shape.maxWidth ? shape.maxWidth / sw : 1,
    shape.maxHeight ? shape.maxHeight / sh : 1,
  );
  if (!shape.crop && scale === 1) return file;
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(sw * scale));
  canvas.height = Math.max(1, Math.round(sh * scale));
  canvas.getContext('2d')?.drawImage(image, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
  const type = file.type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.92));
  if (!blob) return file;
  return new File([blob], file.name, { type });
}
